/**
 * A price offer (spec §2.6): anonymous, from product parameters alone, not
 * stored. The request carries only the product selection.
 * @module
 */
import { Result, Schema } from "effect"
import type { CalendarDate } from "../input/CalendarDate.js"
import { decodeAll, rawAt } from "../input/Decoding.js"
import { constraintViolationOf, type ConstraintViolation } from "../Errors.js"
import { checkBirthDates } from "../product/Parameters.js"
import { RequestObject } from "../input/Fields.js"
import { AnyCoverage, Coverage, coverageSchemaOf } from "../product/Coverage.js"
import { type Catalogue, perCatalogue, shipped } from "../product/ProductCatalogue.js"
import { DocumentLinks, type DocumentLinksShape } from "../ports/DocumentLinks.js"
import {
  AnyProductEcho,
  echoSelection,
  notSoldYet,
  parametersOf,
  ProductEcho,
  perProduct,
  ProductSelection,
  productEchoOf,
  productSelectionOf
} from "../product/ProductSelection.js"
import type { PriceComputation } from "../pricing/PricingPlan.js"

/** What an offer accepts and ignores: a quote request's `policy` and `agent`, so one body serves both endpoints. */
const IgnoredByOffers = (member: string) =>
  Schema.optionalKey(
    Schema.Unknown.annotate({
      description: `Accepted and ignored: the quote request's ${member}, so one body serves offers and quotes. An offer needs only the product (spec §4).`
    })
  )

const offerRequestOf = (product: typeof ProductSelection) =>
  RequestObject({
    product,
    policy: IgnoredByOffers("policy"),
    agent: IgnoredByOffers("agent")
  })

/** `POST /insurance/car/offers` body for a product of a catalogue: its API reference form. */
export const offerRequestSchemaOf = perCatalogue((catalogue) => offerRequestOf(productSelectionOf(catalogue)))

/** `POST /insurance/car/offers` body: the product selection; a quote request's policy and agent may come along. */
export const OfferRequest = offerRequestOf(ProductSelection)
export type OfferRequest = Omit<typeof OfferRequest.Type, "product"> & { readonly product: ProductSelection }
/** An offer request as a client sends it, before it is decoded: what `Kasko.createOffer` decodes (`Examples.offerRequest` makes one). */
export type OfferRequestInput = typeof OfferRequest.Encoded

// each product's offer request: its own parameters and features
const offerRequestFor = perProduct(offerRequestOf)

/** An answer's `privacy`: where the insurer's privacy policy is (`policy_href`). */
export const Privacy = Schema.Struct({ policy_href: Schema.String })

const priceOffer = <P extends Schema.Top, C extends Schema.Top>(product: P, coverage: C) =>
  Schema.Struct({
    price: Schema.Struct({ annually: Schema.Int, monthly: Schema.Int }),
    product,
    policies: Schema.Array(Schema.Struct({ ipid_href: Schema.String, coverages: Schema.Array(coverage) })),
    privacy: Privacy
  })

/** The price offer (spec §2.6) of a catalogue's product. */
export const priceOfferSchemaOf = perCatalogue((catalogue) =>
  priceOffer(productEchoOf(catalogue), coverageSchemaOf(catalogue))
)

/** The price offer as answers write it, of any product (`ProductSelection.AnyProductEcho` says why). */
export const PriceOfferAnswer = priceOffer(AnyProductEcho, AnyCoverage)

/** The price offer (spec §2.6) of a shipped product. */
export const PriceOffer = priceOffer(ProductEcho, Coverage)
export type PriceOffer = typeof PriceOffer.Type

/** The offer a price makes, linking to the documents `links` names (kasko's own paths unless given). */
export const offerOf = (
  request: OfferRequest,
  price: PriceComputation,
  links: DocumentLinksShape = DocumentLinks.defaultValue()
): PriceOffer => ({
  price: { annually: price.annually, monthly: price.monthly },
  product: echoSelection(request.product),
  policies: [
    {
      ipid_href: links.ipidHref(request.product.product_name, price.facts.variant),
      coverages: price.recipe.coverages
    }
  ],
  privacy: { policy_href: links.privacyPolicyHref() }
})

/** Decodes an offer request against the products in force on the pricing date, reporting every violation together. */
export const decodeOfferRequest = (
  input: unknown,
  pricingDate: CalendarDate,
  whole: Catalogue = shipped
): Result.Result<OfferRequest, ConstraintViolation> => {
  const catalogue = whole.on(pricingDate)
  const decoded = decodeAll(offerRequestFor(input, catalogue), input)
  const product = rawAt(input, "product")
  const productName = rawAt(product, "product_name")
  const ages = checkBirthDates(
    parametersOf(productName, catalogue),
    rawAt(product, "parameters"),
    pricingDate,
    "product.parameters"
  )
  // the common case, a valid request, makes no array of violations
  if (Result.isSuccess(decoded) && ages.length === 0) return decoded as Result.Result<OfferRequest, never>
  const failure = constraintViolationOf([
    ...(Result.isFailure(decoded) ? notSoldYet(decoded.failure, productName, whole, catalogue) : []),
    ...ages
  ])
  return failure !== undefined ? Result.fail(failure) : Result.succeed(Result.getOrThrow(decoded) as OfferRequest)
}
