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
import {
  danishDate,
  danishInstant,
  danishKroner,
  danishKronerAndOre,
  facts,
  links,
  paragraph,
  table,
  type PrintedDocument,
  type Section
} from "./PrintedDocument.js"

/** A CPR number with all but its last four digits hidden: "0101901234" → "xxxxxx-1234". */
export const maskedCprNumber = (cprNumber: string): string => `xxxxxx-${cprNumber.slice(-4)}`

const ROLE_TITLES = { policy_holder: "forsikringstager", vehicle_user: "bruger", vehicle_owner: "ejer" } as const

const partyName = (party: Party): string =>
  [
    party.person === undefined ? undefined : `${party.person.first_name} ${party.person.last_name}`,
    party.organization?.name
  ]
    .filter((name) => name !== undefined)
    .join(" / ")

const partyAddress = (party: Party): string | undefined => {
  const address = party.address
  if (address === undefined) return undefined
  if (address.protected === true) return "Adressebeskyttet"
  const floorAndDoor = [address.floor, address.door].filter((part) => part !== undefined).join(" ")
  return `${address.street} ${address.house_number}${floorAndDoor === "" ? "" : `, ${floorAndDoor}`}, ${String(address.postal_code).padStart(4, "0")} ${address.city}`
}

/** A party as registered, one label–value row per thing known of it; its CPR number masked. */
const partyRows = (party: Party, index: number): Array<readonly [string, string]> => {
  const rows: Array<readonly [string, string | undefined]> = [
    [`Part ${index + 1}`, partyName(party)],
    ["CPR-nummer", party.person === undefined ? undefined : maskedCprNumber(party.person.cpr_number)],
    ["CVR-nummer", party.organization?.cvr_number],
    ["Roller", partyRoles(party)],
    ["Adresse", partyAddress(party)],
    ["Telefon", party.phone],
    ["E-mail", party.email]
  ]
  return rows.flatMap(([label, value]) => (value === undefined || value === "" ? [] : [[label, value] as const]))
}

const partyRoles = (party: Party): string =>
  (Object.keys(ROLE_TITLES) as Array<keyof typeof ROLE_TITLES>)
    .filter((role) => party[role] === true)
    .map((role) => ROLE_TITLES[role])
    .join(", ")

// how the catalogue's titles say that a number parameter is an amount of kroner ("Køretøjets pris (kr.)")
const KRONER_UNIT = " (kr.)"

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
  catalogue: Catalogue
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
    return parameter.type === "number" && title.endsWith(KRONER_UNIT)
      ? [[title.slice(0, -KRONER_UNIT.length), danishKroner(Number(value))] as const]
      : [[title, parameterWords(productName, parameter.name, value, catalogue)] as const]
  })
}

/** The quote's document as of `now`, linking to the documents `documentLinks` names. */
export const quoteDocument = (
  stored: StoredQuote,
  documentLinks: DocumentLinksShape,
  now: number,
  catalogue: Catalogue = shipped
): PrintedDocument => {
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
  const state = stored.activated_at === null ? "Afventer aktivering" : `Aktiveret ${danishInstant(stored.activated_at)}`
  const parameterRows = printedParameters(productName, parameters, calendarDateOfMillis(stored.created_at), catalogue)
  // the quote's JSON carries its quote number once it is activated (spec §2.10), and so does its document
  const quoteNumber = stored.activated_at === null ? [] : [["Tilbudsnummer", stored.quote_number] as const]
  const sections: Array<Section> = [
    {
      heading: "Tilbuddet",
      blocks: [
        facts([
          ...quoteNumber,
          ["Policenummer", policy.policy_number],
          ["Tilbuds-id", stored.quote_id],
          ["Status", state],
          ["Oprettet", danishInstant(stored.created_at)],
          ["Gyldigt til", danishInstant(expiresAt(stored))],
          ["Priser pr.", danishDate(worksheet.pricing_date)]
        ])
      ]
    },
    {
      heading: "Forsikringsselskab og formidler",
      blocks: [
        facts([
          ["Forsikringsselskab", `${INSURER.organization.name}, CVR ${INSURER.organization.cvr_number}`],
          [
            "Adresse",
            `${INSURER.address.street} ${INSURER.address.house_number}, ${INSURER.address.postal_code} ${INSURER.address.city}`
          ],
          ["Formidler", `${quote.agent.organization.name}, CVR ${quote.agent.organization.cvr_number}`],
          ...(quote.agent.organization.cvrp_number === undefined
            ? []
            : [["P-nummer", quote.agent.organization.cvrp_number] as const]),
          ["Sælger", quote.agent.user_id]
        ])
      ]
    },
    {
      heading: "Parter",
      blocks: policy.parties.map((party, index) => facts(partyRows(party, index)))
    },
    {
      heading: "Køretøj",
      blocks: [
        facts([
          ["Mærke og model", [vehicle.make, vehicle.model, vehicle.variant].filter((part) => part).join(" ")],
          ["Stelnummer (VIN)", vehicle.vin ?? "–"],
          ["Registreringsnummer", vehicle.registration_number ?? "–"],
          [
            "Køretøjstype",
            `${parameterWords(productName, vehicleCodes.type.parameter, parameters[vehicleCodes.type.parameter] ?? "", catalogue)} (kode ${vehicle.vehicle_type})`
          ],
          [
            "Anvendelse",
            `${parameterWords(productName, vehicleCodes.usage.parameter, parameters[vehicleCodes.usage.parameter] ?? "", catalogue)} (kode ${vehicle.vehicle_usage})`
          ]
        ])
      ]
    },
    {
      heading: "Produkt",
      blocks: [
        facts([
          ["Produkt", definition.title],
          ["Variant", terms.variantTitle],
          ["Dækningsniveau", feature?.title ?? quote.product.features[0]?.name ?? "–"],
          ...parameterRows
        ])
      ]
    },
    {
      heading: "Dækninger",
      blocks: [
        table(
          [
            { title: "Dækning", width: 2.2 },
            { title: "Id", width: 1.6 },
            { title: "Forsikringssum", figures: true, width: 1.2 },
            { title: "Selvrisiko", figures: true, width: 1.2 }
          ],
          policy.coverages.map((coverage) => [
            coverageTitle(productName, coverage.name, catalogue),
            coverage.id,
            coverage.limit === undefined ? "–" : danishKroner(coverage.limit),
            coverage.deductible === undefined ? "–" : danishKroner(coverage.deductible)
          ])
        )
      ]
    },
    {
      heading: "Pris",
      blocks: [
        facts([
          [
            "Pris pr. betaling",
            `${danishKroner(quote.price.amount)} (${paymentsPerYear === 1 ? "1 betaling" : `${paymentsPerYear} betalinger`} pr. år)`
          ],
          ...Object.entries(quote.price.details).map(
            ([charge, amount]) => [`Heraf ${charge}`, `${danishKronerAndOre(amount)} pr. betaling`] as const
          )
        ]),
        paragraph(`Alle beløb er i ${quote.price.currency} og indeholder afgifter og bidrag.`)
      ]
    },
    {
      heading: "Dokumenter",
      blocks: [
        links([
          { title: "Produktinformation (IPID)", url: documentLinks.ipidHref(productName, variant) },
          { title: "Privatlivspolitik", url: documentLinks.privacyPolicyHref() }
        ])
      ]
    }
  ]
  return {
    language: "da-DK",
    title: "Tilbud på bilforsikring",
    subtitle: [`${definition.title} – ${terms.variantTitle}`, ...quoteNumber.map((row) => row.join(" "))].join(" · "),
    sections,
    footer: `${INSURER.organization.name}, CVR ${INSURER.organization.cvr_number} · Tilbuddet gælder til ${danishInstant(expiresAt(stored))} og er ikke en police, før det er aktiveret.`,
    // a sandbox quote's document can never be taken for a real one, on any page
    ...(isSandboxOwner(stored.partner_id) ? { watermark: "TEST" } : {}),
    author: INSURER.organization.name,
    dated: now
  }
}
