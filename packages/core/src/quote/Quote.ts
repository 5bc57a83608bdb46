/**
 * The quote (spec §2.9), built from a validated request and its rating
 * worksheet, and the activated form (spec §2.10).
 * @module
 */
import { Schema } from "effect"
import { AnyCoverage, Coverage, coverageSchemaOf, coveragesOf } from "../product/Coverage.js"
import { formatKroner, roundHalfUp } from "../pricing/Money.js"
import { Privacy } from "./Offer.js"
import { Party } from "./Parties.js"
import {
  type Catalogue,
  INSURER,
  perCatalogue,
  productVariantOfQuotedName,
  quotedProductName,
  shipped
} from "../product/ProductCatalogue.js"
import { DocumentLinks, type DocumentLinksShape } from "../ports/DocumentLinks.js"
import { AnyProductEcho, echoSelection, QuotedProductEcho, quotedProductEchoOf } from "../product/ProductSelection.js"
import { Agent, Vehicle, type QuoteRequest } from "./QuoteRequest.js"
import type { RatingWorksheet } from "../pricing/RatingWorksheet.js"
import { vehicleCode, vehicleCodeSchemasOf } from "../product/VehicleCodes.js"

/** A quote's price: the amount per payment in DKK, how many payments a year, and the charges in each. */
export const QuotePrice = Schema.Struct({
  amount: Schema.Int,
  currency: Schema.Literal("DKK"),
  payments_per_year: Schema.Literals([1, 12]),
  /** The charges per payment, kroner with two decimals: skadesforsikringsafgift, garantifondsbidrag, miljøbidrag. */
  details: Schema.Record(Schema.String, Schema.String)
})
export type QuotePrice = typeof QuotePrice.Type

const Insurer = Schema.Struct({
  organization: Schema.Struct({ cvr_number: Schema.String, name: Schema.String }),
  address: Schema.Struct({
    street: Schema.String,
    house_number: Schema.String,
    postal_code: Schema.Int,
    city: Schema.String
  })
})

const ExpiresAt = Schema.String.annotate({
  description:
    "The instant the quote stops existing (30 days after its creation, 7 for a sandbox key's quote; 404 from then on): ISO 8601, UTC"
})

const quoteSchemas = <P extends Schema.Top, C extends Schema.Top, V extends Schema.Top>(
  product: P,
  coverage: C,
  vehicleCodes: { readonly type: V; readonly usage: V }
) => {
  const QuotedVehicle = Schema.Struct({
    ...Vehicle.fields,
    vehicle_type: vehicleCodes.type,
    vehicle_usage: vehicleCodes.usage
  })

  const QuotePolicy = Schema.Struct({
    policy_number: Schema.String,
    ipid_href: Schema.String,
    insurable_object: Schema.Struct({ vehicle: QuotedVehicle }),
    parties: Schema.Array(Party),
    coverages: Schema.Array(coverage),
    insurer: Schema.optionalKey(Insurer)
  })

  const QuoteContent = Schema.Struct({
    quote_id: Schema.String,
    price: QuotePrice,
    product,
    policies: Schema.Array(QuotePolicy),
    agent: Agent,
    privacy: Privacy
  })

  const Quote = Schema.Struct({
    ...QuoteContent.fields,
    status: Schema.Literal("await_activation").annotate({ description: "The quote's state: awaiting activation" }),
    expires_at: ExpiresAt
  })

  const ActivatedQuote = Schema.Struct({
    ...Quote.fields,
    status: Schema.Literal("activated").annotate({ description: "The quote's state: activated" }),
    polices: Schema.Array(QuotePolicy).annotate({
      description:
        "The same policies as `policies`, under the spelling of the specification's activated example (spec §2.10)"
    }),
    quote_number: Schema.String,
    created_at: Schema.String,
    activated_at: Schema.String
  })

  const QuoteActivation = Schema.Struct({
    status: ActivatedQuote.fields.status,
    expires_at: ExpiresAt
  })

  return { QuoteContent, Quote, ActivatedQuote, QuoteActivation }
}

/** The quote Schemas of a catalogue's products: its quoted names, coverages and vehicle codes as literals. */
export const quoteSchemasOf = perCatalogue((catalogue) =>
  quoteSchemas(quotedProductEchoOf(catalogue), coverageSchemaOf(catalogue), vehicleCodeSchemasOf(catalogue))
)

/**
 * The quote Schemas as answers write them, of any product: a stored quote is answered with the names and codes it
 * was stored with, whatever the catalogue holds now (`ProductSelection.AnyProductEcho` says why).
 */
export const QUOTE_ANSWERS = quoteSchemas(AnyProductEcho, AnyCoverage, { type: Schema.String, usage: Schema.String })

const SHIPPED_SCHEMAS = quoteSchemas(QuotedProductEcho, Coverage, vehicleCodeSchemasOf(shipped))

/**
 * A quote's content (spec §2.9): what it was priced and issued with, and what a store keeps. Its state is not
 * in it: every answer adds `status` and `expires_at` from the stored lifecycle facts (`QuoteLifecycle`).
 */
export const QuoteContent = SHIPPED_SCHEMAS.QuoteContent
export type QuoteContent = typeof QuoteContent.Type

/** A quote awaiting activation (spec §2.9): the answer of create, and of retrieve before activation. */
export const Quote = SHIPPED_SCHEMAS.Quote
export type Quote = typeof Quote.Type

/**
 * An activated quote (spec §2.10): the quote's content and expiry plus its quote_number and
 * timestamps. The policies appear twice, with the same content: as `polices`,
 * the spelling of the specification's activated example that clients written
 * against it read, and as `policies`, as the awaiting form spells it.
 */
export const ActivatedQuote = SHIPPED_SCHEMAS.ActivatedQuote
export type ActivatedQuote = typeof ActivatedQuote.Type

/** What activating a quote answers, the first time and every time after: its state and expiry. */
export const QuoteActivation = SHIPPED_SCHEMAS.QuoteActivation
export type QuoteActivation = typeof QuoteActivation.Type

const quotePrice = (worksheet: RatingWorksheet, paymentsPerYear: 1 | 12): QuotePrice => ({
  amount: paymentsPerYear === 1 ? worksheet.annually : worksheet.monthly,
  currency: "DKK",
  payments_per_year: paymentsPerYear,
  details: Object.fromEntries(
    worksheet.charge_lines
      .filter((charge) => charge.shown_in_price_details)
      .map((charge) => [
        charge.charge,
        formatKroner(roundHalfUp({ numerator: charge.amount_ore, denominator: paymentsPerYear }))
      ])
  )
})

/** Ids a new quote is given. */
interface QuoteIds {
  readonly quote_id: string
  readonly policy_number: string
}

/**
 * The quote a request and its worksheet make, linking to the documents `links` names (kasko's own paths unless
 * given). Extended variant: parties without phone and email, no insurer.
 */
export const quoteOf = (
  request: QuoteRequest,
  worksheet: RatingWorksheet,
  ids: QuoteIds,
  links: DocumentLinksShape = DocumentLinks.defaultValue(),
  catalogue: Catalogue = shipped
): QuoteContent => {
  const product_name = request.product.product_name
  const variant = worksheet.facts.variant
  const parameters = request.product.parameters
  const standard = variant === "standard"
  return {
    quote_id: ids.quote_id,
    price: quotePrice(worksheet, Number(parameters["payments_per_year"] ?? 1) as 1 | 12),
    product: echoSelection(request.product, quotedProductName(product_name, variant, catalogue)),
    policies: [
      {
        policy_number: ids.policy_number,
        ipid_href: links.ipidHref(product_name, variant),
        insurable_object: {
          vehicle: {
            ...request.policy.insurable_object.vehicle,
            vehicle_type: vehicleCode(product_name, "type", parameters, catalogue),
            vehicle_usage: vehicleCode(product_name, "usage", parameters, catalogue)
          }
        },
        parties: standard
          ? request.policy.parties
          : request.policy.parties.map(({ phone: _phone, email: _email, ...party }) => party),
        coverages: coveragesOf(worksheet),
        ...(standard ? { insurer: INSURER } : {})
      }
    ],
    agent: request.agent,
    privacy: { policy_href: links.privacyPolicyHref() }
  }
}

/**
 * The content with the links `links` names now (the stored ones when undefined): a stored quote keeps the links it
 * was created with, and every answer gives the ones configured now, so a changed configuration is seen by every
 * quote (`DocumentLinks`). The events a store writes keep the links of their moment.
 */
export const withCurrentLinks = (
  content: QuoteContent,
  links: DocumentLinksShape | undefined,
  catalogue: Catalogue = shipped
): QuoteContent => {
  if (links === undefined) return content
  const product = productVariantOfQuotedName(content.product.product_name, catalogue)
  const ipidHref = product === undefined ? undefined : links.ipidHref(product.product_name, product.variant)
  return {
    ...content,
    policies:
      ipidHref === undefined
        ? content.policies
        : content.policies.map((policy) => ({ ...policy, ipid_href: ipidHref })),
    privacy: { policy_href: links.privacyPolicyHref() }
  }
}
