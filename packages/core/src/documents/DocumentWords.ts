/**
 * The words of the documents' frames, one table per language: the IPID's and the quote document's titles,
 * headings, labels and joining words, and how amounts, dates and times are written for a reader of the language.
 * What a product says (its titles, terms and coverages) is the product document's, in `ProductTranslations`; the
 * privacy policy's words are `PrivacyPolicy.ts`'s. The Danish table is the documents' words as they have always been.
 * @module
 */
import type { Language } from "../Language.js"
import { ENGLISH, formatKroner, oreOfKroner } from "../pricing/Money.js"
import { copenhagenTime, danishDate, danishInstant, danishKroner, danishKronerAndOre } from "./PrintedDocument.js"

/** The words of the documents' frames in one language. */
export interface DocumentWords {
  /** BCP 47, as the PDF's metadata names it. */
  readonly language: string
  /** Whole kroner: 15000 → "15.000 kr.". */
  readonly kroner: (kroner: number) => string
  /** Kroner with two decimals, from the engine's "1234.50". */
  readonly kronerAndOre: (decimal: string) => string
  /** A calendar date, YYYY-MM-DD. */
  readonly date: (date: string) => string
  /** An instant (epoch ms), in Danish local time. */
  readonly instant: (epochMillis: number) => string
  /** The last word of a list: "og", "and". */
  readonly and: string
  /** Between alternatives: "eller", "or". */
  readonly or: string
  /** How a parameter's title says it is an amount of kroner: " (kr.)". */
  readonly kronerUnit: string
  /**
   * How each page is numbered, `{page}` and `{pages}` replaced (PrintedDocument's `pageNumbers`); none in Danish,
   * whose "Side {page} af {pages}" is the renderer's when a document names none, as before there were languages.
   */
  readonly pageNumbers?: string
  readonly ipid: {
    readonly title: string
    readonly headings: {
      readonly kind: string
      readonly insured: string
      readonly notInsured: string
      readonly restrictions: string
      readonly where: string
      readonly obligations: string
      readonly payment: string
      readonly startAndEnd: string
      readonly cancellation: string
    }
    readonly columns: {
      readonly coverage: string
      readonly includedIn: string
      readonly limit: string
      readonly deductible: string
    }
    /** An amount that is sometimes none: "ingen". */
    readonly none: string
    /** What a coverage without words of its product covers. */
    readonly asDescribed: string
    readonly paymentsPerYear: (options: string) => string
    readonly footer: (insurer: string, cvrNumber: string, tariffVersion: string, effectiveFrom: string) => string
  }
  readonly quote: {
    readonly title: string
    /** The file name a quote's document is saved under, without `.pdf`. */
    readonly fileName: string
    readonly roles: { readonly policy_holder: string; readonly vehicle_user: string; readonly vehicle_owner: string }
    readonly protectedAddress: string
    readonly party: (number: number) => string
    readonly labels: Readonly<Record<QuoteLabel, string>>
    readonly headings: Readonly<Record<QuoteHeading, string>>
    readonly awaitingActivation: string
    readonly activated: (at: string) => string
    readonly code: (code: string) => string
    readonly payments: (paymentsPerYear: number) => string
    readonly ofWhich: (charge: string) => string
    readonly perPayment: (amount: string) => string
    readonly amountsIn: (currency: string) => string
    readonly footer: (insurer: string, cvrNumber: string, validUntil: string) => string
  }
}

type QuoteLabel =
  | "quoteNumber"
  | "policyNumber"
  | "quoteId"
  | "state"
  | "created"
  | "validUntil"
  | "pricesAsOf"
  | "insurer"
  | "address"
  | "agent"
  | "pNumber"
  | "seller"
  | "cprNumber"
  | "cvrNumber"
  | "roles"
  | "phone"
  | "email"
  | "makeAndModel"
  | "vin"
  | "registrationNumber"
  | "vehicleType"
  | "usage"
  | "product"
  | "variant"
  | "coverLevel"
  | "coverage"
  | "id"
  | "limit"
  | "deductible"
  | "pricePerPayment"
  | "productInformation"
  | "privacyPolicy"

type QuoteHeading =
  | "quote"
  | "insurerAndAgent"
  | "parties"
  | "vehicle"
  | "product"
  | "coverages"
  | "price"
  | "documents"

const DANISH_WORDS: DocumentWords = {
  language: "da-DK",
  kroner: danishKroner,
  kronerAndOre: danishKronerAndOre,
  date: danishDate,
  instant: danishInstant,
  and: "og",
  or: "eller",
  kronerUnit: " (kr.)",
  ipid: {
    title: "Forsikringsproduktinformation (IPID)",
    headings: {
      kind: "Hvilken type forsikring er der tale om?",
      insured: "Hvad dækker forsikringen?",
      notInsured: "Hvad dækker forsikringen ikke?",
      restrictions: "Er der begrænsninger i dækningen?",
      where: "Hvor er jeg dækket?",
      obligations: "Hvilke forpligtelser har jeg?",
      payment: "Hvornår og hvordan betaler jeg?",
      startAndEnd: "Hvornår starter og slutter dækningen?",
      cancellation: "Hvordan opsiger jeg aftalen?"
    },
    columns: { coverage: "Dækning", includedIn: "Med i", limit: "Forsikringssum", deductible: "Selvrisiko" },
    none: "ingen",
    asDescribed: "som beskrevet i forsikringsbetingelserne.",
    paymentsPerYear: (options) => `Betalinger pr. år: ${options}.`,
    footer: (insurer, cvrNumber, tariffVersion, effectiveFrom) =>
      `${insurer}, CVR ${cvrNumber}, Danmark · Tarif ${tariffVersion}, gældende fra ${effectiveFrom} · Dette dokument er et resumé; de fulde vilkår står i forsikringsbetingelserne og policen.`
  },
  quote: {
    title: "Tilbud på bilforsikring",
    fileName: "tilbud",
    roles: { policy_holder: "forsikringstager", vehicle_user: "bruger", vehicle_owner: "ejer" },
    protectedAddress: "Adressebeskyttet",
    party: (number) => `Part ${number}`,
    labels: {
      quoteNumber: "Tilbudsnummer",
      policyNumber: "Policenummer",
      quoteId: "Tilbuds-id",
      state: "Status",
      created: "Oprettet",
      validUntil: "Gyldigt til",
      pricesAsOf: "Priser pr.",
      insurer: "Forsikringsselskab",
      address: "Adresse",
      agent: "Formidler",
      pNumber: "P-nummer",
      seller: "Sælger",
      cprNumber: "CPR-nummer",
      cvrNumber: "CVR-nummer",
      roles: "Roller",
      phone: "Telefon",
      email: "E-mail",
      makeAndModel: "Mærke og model",
      vin: "Stelnummer (VIN)",
      registrationNumber: "Registreringsnummer",
      vehicleType: "Køretøjstype",
      usage: "Anvendelse",
      product: "Produkt",
      variant: "Variant",
      coverLevel: "Dækningsniveau",
      coverage: "Dækning",
      id: "Id",
      limit: "Forsikringssum",
      deductible: "Selvrisiko",
      pricePerPayment: "Pris pr. betaling",
      productInformation: "Produktinformation (IPID)",
      privacyPolicy: "Privatlivspolitik"
    },
    headings: {
      quote: "Tilbuddet",
      insurerAndAgent: "Forsikringsselskab og formidler",
      parties: "Parter",
      vehicle: "Køretøj",
      product: "Produkt",
      coverages: "Dækninger",
      price: "Pris",
      documents: "Dokumenter"
    },
    awaitingActivation: "Afventer aktivering",
    activated: (at) => `Aktiveret ${at}`,
    code: (code) => `kode ${code}`,
    payments: (paymentsPerYear) => `${paymentsPerYear === 1 ? "1 betaling" : `${paymentsPerYear} betalinger`} pr. år`,
    ofWhich: (charge) => `Heraf ${charge}`,
    perPayment: (amount) => `${amount} pr. betaling`,
    amountsIn: (currency) => `Alle beløb er i ${currency} og indeholder afgifter og bidrag.`,
    footer: (insurer, cvrNumber, validUntil) =>
      `${insurer}, CVR ${cvrNumber} · Tilbuddet gælder til ${validUntil} og er ikke en police, før det er aktiveret.`
  }
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]

/** A calendar date in English words: "2026-03-02" → "2 March 2026". */
const englishDate = (date: string): string => {
  const [year, month, day] = date.split("-").map(Number)
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`
}

/** An instant in English, in Danish local time: "2 March 2026, 10:00 (Danish time)". */
const englishInstant = (epochMillis: number): string => {
  const { date, hour, minute } = copenhagenTime(epochMillis)
  return `${englishDate(date)}, ${hour}:${minute} (Danish time)`
}

const ENGLISH_WORDS: DocumentWords = {
  language: "en",
  kroner: (kroner) => `DKK ${formatKroner(oreOfKroner(kroner), { ...ENGLISH, decimals: 0 })}`,
  kronerAndOre: (decimal) => `DKK ${formatKroner(oreOfKroner(Number(decimal)), ENGLISH)}`,
  date: englishDate,
  instant: englishInstant,
  and: "and",
  or: "or",
  kronerUnit: " (DKK)",
  pageNumbers: "Page {page} of {pages}",
  ipid: {
    title: "Insurance Product Information Document (IPID)",
    headings: {
      kind: "What is this type of insurance?",
      insured: "What is insured?",
      notInsured: "What is not insured?",
      restrictions: "Are there any restrictions on cover?",
      where: "Where am I covered?",
      obligations: "What are my obligations?",
      payment: "When and how do I pay?",
      startAndEnd: "When does the cover start and end?",
      cancellation: "How do I cancel the contract?"
    },
    columns: { coverage: "Cover", includedIn: "Included in", limit: "Sum insured", deductible: "Deductible" },
    none: "none",
    asDescribed: "as described in the insurance terms.",
    paymentsPerYear: (options) => `Payments per year: ${options}.`,
    footer: (insurer, cvrNumber, tariffVersion, effectiveFrom) =>
      `${insurer}, CVR ${cvrNumber}, Denmark · Tariff ${tariffVersion}, in force from ${effectiveFrom} · This document is a summary; the full terms are in the insurance terms and the policy.`
  },
  quote: {
    title: "Car insurance quote",
    fileName: "quote",
    roles: { policy_holder: "policyholder", vehicle_user: "user", vehicle_owner: "owner" },
    protectedAddress: "Address protected",
    party: (number) => `Party ${number}`,
    labels: {
      quoteNumber: "Quote number",
      policyNumber: "Policy number",
      quoteId: "Quote id",
      state: "Status",
      created: "Created",
      validUntil: "Valid until",
      pricesAsOf: "Prices as of",
      insurer: "Insurer",
      address: "Address",
      agent: "Agent",
      pNumber: "P number",
      seller: "Seller",
      cprNumber: "CPR number",
      cvrNumber: "CVR number",
      roles: "Roles",
      phone: "Phone",
      email: "Email",
      makeAndModel: "Make and model",
      vin: "Chassis number (VIN)",
      registrationNumber: "Registration number",
      vehicleType: "Vehicle type",
      usage: "Use",
      product: "Product",
      variant: "Variant",
      coverLevel: "Cover level",
      coverage: "Cover",
      id: "Id",
      limit: "Sum insured",
      deductible: "Deductible",
      pricePerPayment: "Price per payment",
      productInformation: "Product information (IPID)",
      privacyPolicy: "Privacy policy"
    },
    headings: {
      quote: "The quote",
      insurerAndAgent: "Insurer and agent",
      parties: "Parties",
      vehicle: "Vehicle",
      product: "Product",
      coverages: "Covers",
      price: "Price",
      documents: "Documents"
    },
    awaitingActivation: "Awaiting activation",
    activated: (at) => `Activated ${at}`,
    code: (code) => `code ${code}`,
    payments: (paymentsPerYear) => `${paymentsPerYear === 1 ? "1 payment" : `${paymentsPerYear} payments`} a year`,
    ofWhich: (charge) => `Of which ${charge}`,
    perPayment: (amount) => `${amount} per payment`,
    amountsIn: (currency) => `All amounts are in ${currency} and include taxes and contributions.`,
    footer: (insurer, cvrNumber, validUntil) =>
      `${insurer}, CVR ${cvrNumber} · The quote is valid until ${validUntil} and is not a policy until it is activated.`
  }
}

/** The documents' frame words in a language. */
export const DOCUMENT_WORDS: Readonly<Record<Language, DocumentWords>> = { da: DANISH_WORDS, en: ENGLISH_WORDS }
