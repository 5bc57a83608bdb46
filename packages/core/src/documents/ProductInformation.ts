/**
 * The insurance product information document (IPID) of a product variant: the standardised summary the Insurance
 * Distribution Directive (Art. 20(5)–(8), Implementing Regulation (EU) 2017/1469) requires before a contract, in
 * its nine sections. What is insured comes from the tariff in force — the coverages its rules give the variant
 * under each feature, with their limits and deductibles, found by pricing a case of every kind its rules tell
 * apart (`factsOfVariant`) — and the words from the catalogue (`ProductTerms`). Made once per tariff version and variant (again
 * only when the charges in force change).
 */
import { type Catalogue, INSURER, type FeatureName, shipped } from "../product/ProductCatalogue.js"
import { coverageTerms, coverageTitle, productTerms } from "../product/ProductTerms.js"
import { inLanguage } from "../product/ProductTranslations.js"
import type { Language } from "../Language.js"
import { DOCUMENT_WORDS, type DocumentWords } from "./DocumentWords.js"
import type { ProductDocument } from "../product/ProductDocument.js"
import type { Variant } from "../product/Variant.js"
import { casesOf } from "../product/CaseSpace.js"
import { planOn } from "../pricing/TariffPlans.js"
import type { PricingFacts } from "../pricing/PricingFacts.js"
import { chargesInForce, type Charge, type Instruction, type Tariff } from "../pricing/Tariff.js"
import { factConditionsOf } from "../pricing/TariffCompiler.js"
import type { CalendarDate } from "../input/CalendarDate.js"
import { fingerprint, list, paragraph, table, type PrintedDocument, type Section } from "./PrintedDocument.js"

/** A coverage of a variant, as the IPID lists it: which features give it, and every limit and deductible it can have. */
export interface VariantCoverage {
  readonly name: string
  readonly id: string
  /** The features that give it, in the catalogue's order. */
  readonly features: ReadonlyArray<FeatureName>
  /** Every limit the tariff can set on it (whole kroner, ascending); none when it has no limit. */
  readonly limits: ReadonlyArray<number>
  /** Every deductible the tariff can set on it (whole kroner, ascending). */
  readonly deductibles: ReadonlyArray<number>
  /** True when some priced case of a feature that gives it has no limit (or no deductible): "ingen" is among them. */
  readonly sometimesWithoutLimit: boolean
  readonly sometimesWithoutDeductible: boolean
}

// the rules that decide what the IPID shows: which coverages a case has, their limits and deductibles, and the
// charges listed among them; a loading changes only a premium, which the IPID does not show
const SHOWN_INSTRUCTIONS: ReadonlySet<Instruction["type"]> = new Set([
  "add_coverage",
  "set_deductible",
  "set_limit",
  "list_charge_as_coverage"
])

/** The facts a case of the variant can have, as far as the tariff's shown rules tell cases apart. */
const factsOfVariant = (
  tariff: Tariff,
  variant: Variant,
  feature: FeatureName,
  catalogue: Catalogue
): Array<PricingFacts> => {
  const document = catalogue.document(tariff.product_name)
  if (document === undefined) return []
  const shown = tariff.rules
    .filter((rule) => SHOWN_INSTRUCTIONS.has(rule.event.type))
    .flatMap((rule) => factConditionsOf(rule.conditions))
  return casesOf(document, shown).filter((facts) => facts.variant === variant && facts.feature === feature)
}

const ascending = (values: Iterable<number>): Array<number> => [...new Set(values)].sort((a, b) => a - b)

/** The coverages the tariff gives a variant, in tariff order, each with the features that give it and its figures. */
export const coveragesOfVariant = (
  tariff: Tariff,
  variant: Variant,
  pricingDate: CalendarDate,
  catalogue: Catalogue = shipped
): ReadonlyArray<VariantCoverage> => {
  const plan = planOn(tariff, pricingDate)
  const found = new Map<
    string,
    {
      id: string
      features: Set<FeatureName>
      limits: Set<number>
      deductibles: Set<number>
      withoutLimit: boolean
      withoutDeductible: boolean
    }
  >()
  const features = catalogue.definition(tariff.product_name)!.features.map((feature) => feature.name)
  for (const feature of features) {
    for (const facts of factsOfVariant(tariff, variant, feature, catalogue)) {
      for (const coverage of plan.price(facts, pricingDate, plan.fire(facts)).recipe.coverages) {
        const seen = found.get(coverage.name) ?? {
          id: coverage.id,
          features: new Set<FeatureName>(),
          limits: new Set<number>(),
          deductibles: new Set<number>(),
          withoutLimit: false,
          withoutDeductible: false
        }
        seen.features.add(feature)
        if (coverage.limit === undefined) seen.withoutLimit = true
        else seen.limits.add(coverage.limit)
        if (coverage.deductible === undefined) seen.withoutDeductible = true
        else seen.deductibles.add(coverage.deductible)
        found.set(coverage.name, seen)
      }
    }
  }
  return [...found].map(([name, seen]) => ({
    name,
    id: seen.id,
    features: features.filter((feature) => seen.features.has(feature)),
    limits: ascending(seen.limits),
    deductibles: ascending(seen.deductibles),
    sometimesWithoutLimit: seen.withoutLimit,
    sometimesWithoutDeductible: seen.withoutDeductible
  }))
}

/** Amounts as a cell: one figure, or every figure it can be ("5.000 kr. eller 10.000 kr."), "ingen" among them. */
const amountsCell = (amounts: ReadonlyArray<number>, sometimesNone: boolean, words: DocumentWords): string => {
  const figures = amounts.map(words.kroner)
  if (figures.length === 0) return "–"
  if (sometimesNone) figures.unshift(words.ipid.none)
  return figures.length === 1 ? figures[0]! : `${figures.slice(0, -1).join(", ")} ${words.or} ${figures.at(-1)}`
}

/** The features that give a coverage, by their titles: "Standard og Premium", "Premium". */
const featureCell = (
  coverage: VariantCoverage,
  features: ReadonlyArray<{ name: FeatureName; title: string }>,
  words: DocumentWords
) => {
  const titles = features.filter((feature) => coverage.features.includes(feature.name)).map((feature) => feature.title)
  return titles.length <= 1 ? (titles[0] ?? "–") : `${titles.slice(0, -1).join(", ")} ${words.and} ${titles.at(-1)}`
}

const withTariffFigures = (text: string, tariff: Tariff): string =>
  text.replaceAll("{monthly_surcharge_percent}", String(tariff.monthly_surcharge_percent))

/** A variant's IPID as last made, with the day it was last asked for and the charges in force that day. */
interface KeptDocument {
  readonly document: PrintedDocument
  readonly charges: ReadonlyArray<Charge>
  /** The version of the product it was made with. */
  readonly product: ProductDocument | undefined
  pricingDate: CalendarDate
}

// per tariff version (the key: a tariff is one product's), one entry per variant and language: bounded, and
// alternating variants or languages never drops the other's
const documents = new WeakMap<Tariff, Map<`${Variant}/${Language}`, KeptDocument>>()

const sameCharges = (a: ReadonlyArray<Charge>, b: ReadonlyArray<Charge>): boolean =>
  a.length === b.length && a.every((charge, index) => charge === b[index])

/**
 * The IPID of a product variant under a tariff version, priced as of `pricingDate`, in a language (Danish unless
 * given). What it says depends on the day only through the charges in force (one may be listed among the
 * coverages), so it is made once per tariff version, variant and language, and again only on a day whose charges in
 * force, or version of the product in force, differ from those it was made with.
 */
export const productInformationDocument = (
  tariff: Tariff,
  variant: Variant,
  pricingDate: CalendarDate,
  catalogue: Catalogue = shipped,
  language: Language = "da"
): PrintedDocument => {
  let byVariant = documents.get(tariff)
  if (byVariant === undefined) {
    byVariant = new Map()
    documents.set(tariff, byVariant)
  }
  const key = `${variant}/${language}` as const
  const kept = byVariant.get(key)
  if (kept !== undefined && kept.pricingDate === pricingDate) return kept.document
  const charges = chargesInForce(tariff, pricingDate)
  const inForce = catalogue.on(pricingDate)
  const product = inForce.document(tariff.product_name)
  if (kept !== undefined && kept.product === product && sameCharges(kept.charges, charges)) {
    kept.pricingDate = pricingDate
    return kept.document
  }
  const document = makeProductInformation(
    tariff,
    variant,
    pricingDate,
    inLanguage(inForce, language),
    DOCUMENT_WORDS[language]
  )
  byVariant.set(key, { document, charges, product, pricingDate })
  return document
}

const makeProductInformation = (
  tariff: Tariff,
  variant: Variant,
  pricingDate: CalendarDate,
  catalogue: Catalogue,
  words: DocumentWords
): PrintedDocument => {
  const definition = catalogue.definition(tariff.product_name)!
  const terms = productTerms(tariff.product_name, variant, catalogue)
  const coverages = coveragesOfVariant(tariff, variant, pricingDate, catalogue)
  const figures = (text: string) => withTariffFigures(text, tariff)
  const paymentsPerYear = definition.parameters.find((parameter) => parameter.name === "payments_per_year")
  const paymentOptions = (paymentsPerYear?.options ?? []).map((option) => option.id).join(` ${words.or} `)
  const sections: Array<Section> = [
    { heading: words.ipid.headings.kind, blocks: [paragraph(terms.kind)] },
    {
      heading: words.ipid.headings.insured,
      blocks: [
        table(
          [
            { title: words.ipid.columns.coverage, width: 2 },
            { title: words.ipid.columns.includedIn, width: 1.5 },
            { title: words.ipid.columns.limit, figures: true, width: 1.2 },
            { title: words.ipid.columns.deductible, figures: true, width: 1.2 }
          ],
          coverages.map((coverage) => [
            coverageTitle(tariff.product_name, coverage.name, catalogue),
            featureCell(coverage, definition.features, words),
            amountsCell(coverage.limits, coverage.sometimesWithoutLimit, words),
            amountsCell(coverage.deductibles, coverage.sometimesWithoutDeductible, words)
          ])
        ),
        list(
          coverages.map(
            (coverage) =>
              `${coverageTitle(tariff.product_name, coverage.name, catalogue)}: ${coverageTerms(tariff.product_name, coverage.name, catalogue)?.covers ?? words.ipid.asDescribed}`
          )
        )
      ]
    },
    { heading: words.ipid.headings.notInsured, blocks: [list(terms.notInsured)] },
    { heading: words.ipid.headings.restrictions, blocks: [list(terms.restrictions)] },
    { heading: words.ipid.headings.where, blocks: [list(terms.where)] },
    { heading: words.ipid.headings.obligations, blocks: [list(terms.obligations)] },
    {
      heading: words.ipid.headings.payment,
      blocks: [list([...terms.payment.map(figures), words.ipid.paymentsPerYear(paymentOptions)])]
    },
    { heading: words.ipid.headings.startAndEnd, blocks: [list(terms.startAndEnd)] },
    { heading: words.ipid.headings.cancellation, blocks: [list(terms.cancellation)] }
  ]
  const content = {
    language: words.language,
    title: words.ipid.title,
    subtitle: `${definition.title} – ${terms.variantTitle}`,
    sections,
    footer: words.ipid.footer(
      INSURER.organization.name,
      INSURER.organization.cvr_number,
      tariff.version,
      words.date(tariff.effective_from)
    ),
    author: INSURER.organization.name,
    dated: Date.parse(`${tariff.effective_from}T00:00:00.000Z`)
  }
  return {
    ...content,
    // a language's page numbers follow from its language, which the content names: outside the fingerprint
    ...(words.pageNumbers === undefined ? {} : { pageNumbers: words.pageNumbers }),
    cacheKey: `ipid/${tariff.product_name}/${variant}/${tariff.version}/${fingerprint(JSON.stringify(content))}`
  }
}
