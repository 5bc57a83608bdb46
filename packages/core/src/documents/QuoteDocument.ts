/**
 * The quote document a dealer prints or e-mails to the customer: the quote as stored — insurer, partner and
 * agent, the parties as registered (CPR numbers masked but for their last four digits, protected addresses left
 * out), the vehicle, the product and variant with its parameters (the youngest user's age, never a birth date),
 * the coverages with their limits and deductibles, the price per payment with its charges, the day its prices
 * are of, when it was created and until when it is valid, and whether it is activated (with its quote number
 * once it is). Written for the customer: times in Danish local time, amounts with thousands separators, the
 * catalogue's titles rather than the API's names, and no figure the quote's JSON does not carry (so neither a
 * yearly total it does not answer nor a quote number before activation gives it one) — nothing is priced again.
 */
import { isSandboxOwner } from "../partner/Sandbox.js"
import { ageOn, calendarDateOfMillis } from "../input/CalendarDate.js"
import type { DocumentLinksShape } from "../ports/DocumentLinks.js"
import type { StoredQuote } from "../ports/QuoteStore.js"
import { type Catalogue, INSURER, type ProductName, shipped } from "../product/ProductCatalogue.js"
import { coverageTitle, productTerms } from "../product/ProductTerms.js"
import type { Party } from "../quote/Parties.js"
import { expiresAt } from "../quote/QuoteLifecycle.js"
import type { Language } from "../Language.js"
import { inLanguage } from "../product/ProductTranslations.js"
import { DOCUMENT_WORDS, type DocumentWords } from "./DocumentWords.js"
import { facts, links, paragraph, table, type PrintedDocument, type Section } from "./PrintedDocument.js"

/** A CPR number with all but its last four digits hidden: "0101901234" → "xxxxxx-1234". */
export const maskedCprNumber = (cprNumber: string): string => `xxxxxx-${cprNumber.slice(-4)}`

const partyName = (party: Party): string =>
  [
    party.person === undefined ? undefined : `${party.person.first_name} ${party.person.last_name}`,
    party.organization?.name
  ]
    .filter((name) => name !== undefined)
    .join(" / ")

const partyAddress = (party: Party, words: DocumentWords): string | undefined => {
  const address = party.address
  if (address === undefined) return undefined
  if (address.protected === true) return words.quote.protectedAddress
  const floorAndDoor = [address.floor, address.door].filter((part) => part !== undefined).join(" ")
  return `${address.street} ${address.house_number}${floorAndDoor === "" ? "" : `, ${floorAndDoor}`}, ${String(address.postal_code).padStart(4, "0")} ${address.city}`
}

/** A party as registered, one label–value row per thing known of it; its CPR number masked. */
const partyRows = (party: Party, index: number, words: DocumentWords): Array<readonly [string, string]> => {
  const labels = words.quote.labels
  const rows: Array<readonly [string, string | undefined]> = [
    [words.quote.party(index + 1), partyName(party)],
    [labels.cprNumber, party.person === undefined ? undefined : maskedCprNumber(party.person.cpr_number)],
    [labels.cvrNumber, party.organization?.cvr_number],
    [labels.roles, partyRoles(party, words)],
    [labels.address, partyAddress(party, words)],
    [labels.phone, party.phone],
    [labels.email, party.email]
  ]
  return rows.flatMap(([label, value]) => (value === undefined || value === "" ? [] : [[label, value] as const]))
}

const partyRoles = (party: Party, words: DocumentWords): string =>
  (Object.keys(words.quote.roles) as Array<keyof DocumentWords["quote"]["roles"]>)
    .filter((role) => party[role] === true)
    .map((role) => words.quote.roles[role])
    .join(", ")

/** A parameter's value in the catalogue's words: the option's title, or the value itself. */
const parameterWords = (productName: ProductName, name: string, value: string, catalogue: Catalogue): string => {
  const option = catalogue
    .definition(productName)
    ?.parameters.find((parameter) => parameter.name === name)
    ?.options?.find((candidate) => candidate.id === value)
  return option === undefined ? value : String(option.title)
}

/**
 * The product parameters as the document prints them, in the catalogue's order and words — but never a date: a
 * date parameter is a person's (the seed products' youngest user's birth date), and with the last four digits of a
 * CPR number the document shows, a birth date equal to that person's gives the whole number. An age a birth date
 * stands for (`age_of`) is printed as the age it gives on the day the quote was made (as it was priced), under the
 * age's title.
 */
const printedParameters = (
  productName: ProductName,
  parameters: Readonly<Record<string, string>>,
  createdOn: string,
  catalogue: Catalogue,
  words: DocumentWords
): Array<readonly [string, string]> => {
  const definition = catalogue.definition(productName)!
  const birthDates =
    catalogue.document(productName)?.parameters.filter((parameter) => parameter.age_of !== undefined) ?? []
  const ageOf = (name: string): string | undefined => {
    const birthDate = birthDates.find((parameter) => parameter.age_of!.parameter === name)
    const given = birthDate === undefined ? undefined : parameters[birthDate.name]
    return given === undefined ? undefined : String(ageOn(given, createdOn))
  }
  return definition.parameters.flatMap((parameter) => {
    if (parameter.type === "date") return []
    const value = parameters[parameter.name] ?? ageOf(parameter.name)
    if (value === undefined) return []
    const title = String(parameter.title)
    // how the catalogue's titles say that a number parameter is an amount of kroner ("Køretøjets pris (kr.)")
    return parameter.type === "number" && title.endsWith(words.kronerUnit)
      ? [[title.slice(0, -words.kronerUnit.length), words.kroner(Number(value))] as const]
      : [[title, parameterWords(productName, parameter.name, value, catalogue)] as const]
  })
}

/** The quote's document as of `now`, in a language (Danish unless given), linking to the documents `documentLinks` names. */
export const quoteDocument = (
  stored: StoredQuote,
  documentLinks: DocumentLinksShape,
  now: number,
  productCatalogue: Catalogue = shipped,
  language: Language = "da"
): PrintedDocument => {
  const catalogue = inLanguage(productCatalogue, language)
  const words = DOCUMENT_WORDS[language]
  const labels = words.quote.labels
  const quote = stored.quote
  const worksheet = stored.worksheet
  const productName = worksheet.product_name
  const variant = worksheet.facts.variant
  const definition = catalogue.definition(productName)!
  const vehicleCodes = catalogue.document(productName)!.vehicle_codes
  const terms = productTerms(productName, variant, catalogue)
  const policy = quote.policies[0]!
  const parameters = quote.product.parameters
  const vehicle = policy.insurable_object.vehicle
  const paymentsPerYear = quote.price.payments_per_year
  const feature = definition.features.find((candidate) => candidate.name === quote.product.features[0]?.name)
  const state =
    stored.activated_at === null
      ? words.quote.awaitingActivation
      : words.quote.activated(words.instant(stored.activated_at))
  const parameterRows = printedParameters(
    productName,
    parameters,
    calendarDateOfMillis(stored.created_at),
    catalogue,
    words
  )
  // the quote's JSON carries its quote number once it is activated (spec §2.10), and so does its document
  const quoteNumber = stored.activated_at === null ? [] : [[labels.quoteNumber, stored.quote_number] as const]
  const sections: Array<Section> = [
    {
      heading: words.quote.headings.quote,
      blocks: [
        facts([
          ...quoteNumber,
          [labels.policyNumber, policy.policy_number],
          [labels.quoteId, stored.quote_id],
          [labels.state, state],
          [labels.created, words.instant(stored.created_at)],
          [labels.validUntil, words.instant(expiresAt(stored))],
          [labels.pricesAsOf, words.date(worksheet.pricing_date)]
        ])
      ]
    },
    {
      heading: words.quote.headings.insurerAndAgent,
      blocks: [
        facts([
          [labels.insurer, `${INSURER.organization.name}, CVR ${INSURER.organization.cvr_number}`],
          [
            labels.address,
            `${INSURER.address.street} ${INSURER.address.house_number}, ${INSURER.address.postal_code} ${INSURER.address.city}`
          ],
          [labels.agent, `${quote.agent.organization.name}, CVR ${quote.agent.organization.cvr_number}`],
          ...(quote.agent.organization.cvrp_number === undefined
            ? []
            : [[labels.pNumber, quote.agent.organization.cvrp_number] as const]),
          [labels.seller, quote.agent.user_id]
        ])
      ]
    },
    {
      heading: words.quote.headings.parties,
      blocks: policy.parties.map((party, index) => facts(partyRows(party, index, words)))
    },
    {
      heading: words.quote.headings.vehicle,
      blocks: [
        facts([
          [labels.makeAndModel, [vehicle.make, vehicle.model, vehicle.variant].filter((part) => part).join(" ")],
          [labels.vin, vehicle.vin ?? "–"],
          [labels.registrationNumber, vehicle.registration_number ?? "–"],
          [
            labels.vehicleType,
            `${parameterWords(productName, vehicleCodes.type.parameter, parameters[vehicleCodes.type.parameter] ?? "", catalogue)} (${words.quote.code(vehicle.vehicle_type)})`
          ],
          [
            labels.usage,
            `${parameterWords(productName, vehicleCodes.usage.parameter, parameters[vehicleCodes.usage.parameter] ?? "", catalogue)} (${words.quote.code(vehicle.vehicle_usage)})`
          ]
        ])
      ]
    },
    {
      heading: words.quote.headings.product,
      blocks: [
        facts([
          [labels.product, definition.title],
          [labels.variant, terms.variantTitle],
          [labels.coverLevel, feature?.title ?? quote.product.features[0]?.name ?? "–"],
          ...parameterRows
        ])
      ]
    },
    {
      heading: words.quote.headings.coverages,
      blocks: [
        table(
          [
            { title: labels.coverage, width: 2.2 },
            { title: labels.id, width: 1.6 },
            { title: labels.limit, figures: true, width: 1.2 },
            { title: labels.deductible, figures: true, width: 1.2 }
          ],
          policy.coverages.map((coverage) => [
            coverageTitle(productName, coverage.name, catalogue),
            coverage.id,
            coverage.limit === undefined ? "–" : words.kroner(coverage.limit),
            coverage.deductible === undefined ? "–" : words.kroner(coverage.deductible)
          ])
        )
      ]
    },
    {
      heading: words.quote.headings.price,
      blocks: [
        facts([
          [labels.pricePerPayment, `${words.kroner(quote.price.amount)} (${words.quote.payments(paymentsPerYear)})`],
          ...Object.entries(quote.price.details).map(
            ([charge, amount]) =>
              [words.quote.ofWhich(charge), words.quote.perPayment(words.kronerAndOre(amount))] as const
          )
        ]),
        paragraph(words.quote.amountsIn(quote.price.currency))
      ]
    },
    {
      heading: words.quote.headings.documents,
      blocks: [
        links([
          { title: labels.productInformation, url: documentLinks.ipidHref(productName, variant) },
          { title: labels.privacyPolicy, url: documentLinks.privacyPolicyHref() }
        ])
      ]
    }
  ]
  return {
    language: words.language,
    ...(words.pageNumbers === undefined ? {} : { pageNumbers: words.pageNumbers }),
    title: words.quote.title,
    subtitle: [`${definition.title} – ${terms.variantTitle}`, ...quoteNumber.map((row) => row.join(" "))].join(" · "),
    sections,
    footer: words.quote.footer(
      INSURER.organization.name,
      INSURER.organization.cvr_number,
      words.instant(expiresAt(stored))
    ),
    // a sandbox quote's document can never be taken for a real one, on any page
    ...(isSandboxOwner(stored.partner_id) ? { watermark: "TEST" } : {}),
    author: INSURER.organization.name,
    dated: now
  }
}
