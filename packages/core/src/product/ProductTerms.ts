/**
 * What the products' documents say in words, in the catalogue's language (Danish, the products' own, or the language
 * `ProductTranslations.inLanguage` made it in): the coverages' titles and what
 * each covers, and the terms of the product information document (IPID, Commission Implementing Regulation (EU)
 * 2017/1469) — what is not insured, restrictions, where the cover applies, the customer's obligations, payment,
 * start and end, cancellation — per product and variant. The words are the product documents' (ProductDocument.ts);
 * the figures (limits, deductibles, the monthly surcharge) come from the tariff in force, never from here;
 * `{monthly_surcharge_percent}` in a text is replaced with the tariff's.
 */
import { type Catalogue, type ProductName, shipped } from "./ProductCatalogue.js"
import type { Variant } from "./Variant.js"

/** A coverage as the documents name and explain it. */
export interface CoverageTerms {
  readonly title: string
  readonly covers: string
}

/** A coverage or listed charge in the words of the product's document; undefined when it has none for it. */
export const coverageTerms = (
  productName: ProductName,
  coverage: string,
  catalogue: Catalogue = shipped
): CoverageTerms | undefined => {
  const coverages = catalogue.document(productName)?.coverages
  return coverages !== undefined && Object.hasOwn(coverages, coverage) ? coverages[coverage] : undefined
}

/** A coverage's title, or its tariff name when the product's document has no words for it (a tariff of an insurer's own). */
export const coverageTitle = (productName: ProductName, coverage: string, catalogue: Catalogue = shipped): string =>
  coverageTerms(productName, coverage, catalogue)?.title ?? coverage

/** The IPID's terms of one product variant, in words. */
export interface ProductTerms {
  /** The variant's name as customers read it. */
  readonly variantTitle: string
  /** Who the variant is for and what kind of insurance it is. */
  readonly kind: string
  readonly notInsured: ReadonlyArray<string>
  readonly restrictions: ReadonlyArray<string>
  readonly where: ReadonlyArray<string>
  readonly obligations: ReadonlyArray<string>
  readonly payment: ReadonlyArray<string>
  readonly startAndEnd: ReadonlyArray<string>
  readonly cancellation: ReadonlyArray<string>
}

/** The IPID's terms of a product variant. */
export const productTerms = (
  productName: ProductName,
  variant: Variant,
  catalogue: Catalogue = shipped
): ProductTerms => {
  const terms = catalogue.document(productName)?.variants.find((candidate) => candidate.name === variant)?.terms
  if (terms === undefined) throw new Error(`the catalogue has no terms for ${productName}, ${variant}`)
  return {
    variantTitle: terms.title,
    kind: terms.kind,
    notInsured: terms.not_insured,
    restrictions: terms.restrictions,
    where: terms.where,
    obligations: terms.obligations,
    payment: terms.payment,
    startAndEnd: terms.start_and_end,
    cancellation: terms.cancellation
  }
}
