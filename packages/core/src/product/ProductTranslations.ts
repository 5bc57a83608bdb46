/**
 * A product's words in the language an answer is in: the product document (Danish, the products' language) with
 * its `translations` section's words in their places — titles of the product, parameters, options and features,
 * the IPID's terms, the coverages' words. What a translation leaves out stays Danish, and `missingTranslations`
 * names it for `kasko products check`. Names, rules, codes and figures are the same in every language, so a
 * catalogue in another language prices, decodes and names as the Danish one does.
 * @module
 */
import type { Language } from "../Language.js"
import { type Catalogue, fromDocuments } from "./ProductCatalogue.js"
import type { ProductDocument, ProductTranslation } from "./ProductDocument.js"

/** The translation a document carries for a language: none for Danish, the document's own. */
const translationOf = (document: ProductDocument, language: Language): ProductTranslation | undefined =>
  language === "da" ? undefined : document.translations?.[language]

const own = <A>(record: Readonly<Record<string, A>> | undefined, key: string): A | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined

/** A product document in a language: its words translated where its translation has them. */
export const translatedDocument = (document: ProductDocument, language: Language): ProductDocument => {
  const translation = translationOf(document, language)
  if (translation === undefined) return document
  return {
    ...document,
    title: translation.title ?? document.title,
    parameters: document.parameters.map((parameter) => {
      const words = own(translation.parameters, parameter.name)
      if (words === undefined) return parameter
      return {
        ...parameter,
        title: words.title ?? parameter.title,
        ...(parameter.options === undefined
          ? {}
          : {
              options: parameter.options.map((option) => ({
                ...option,
                title: own(words.options, option.id) ?? option.title
              }))
            })
      }
    }),
    features: document.features.map((feature) => {
      const words = own(translation.features, feature.name)
      return words === undefined
        ? feature
        : { ...feature, title: words.title ?? feature.title, description: words.description ?? feature.description }
    }),
    variants: document.variants.map((variant) => {
      const terms = own(translation.variants, variant.name)
      return terms === undefined ? variant : { ...variant, terms }
    }),
    coverages: Object.fromEntries(
      Object.entries(document.coverages).map(([name, words]) => [name, own(translation.coverages, name) ?? words])
    )
  }
}

const translated = new WeakMap<Catalogue, Map<Language, Catalogue>>()

/**
 * A catalogue in a language: the same products and versions, in its words (the catalogue itself for Danish).
 * Made once per catalogue and language, so what is made of a catalogue (`perCatalogue`) is made once for it too.
 */
export const inLanguage = (catalogue: Catalogue, language: Language): Catalogue => {
  if (language === "da") return catalogue
  let byLanguage = translated.get(catalogue)
  if (byLanguage === undefined) {
    byLanguage = new Map()
    translated.set(catalogue, byLanguage)
  }
  let made = byLanguage.get(language)
  if (made === undefined) {
    made = fromDocuments(catalogue.versions.map((document) => translatedDocument(document, language)))
    byLanguage.set(language, made)
  }
  return made
}

/**
 * The words of a document its translation into a language lacks, each by its path in the document
 * (`translations.en.parameters.vehicle_type.options.personbil`); none for Danish, the document's own. A number an
 * option is titled with (`payments_per_year`'s 1 and 12) reads the same in every language and needs none.
 */
export const missingTranslations = (document: ProductDocument, language: Language): Array<string> => {
  if (language === "da") return []
  const translation = document.translations?.[language]
  const at = `translations.${language}`
  if (translation === undefined) return [at]
  const missing: Array<string> = []
  if (translation.title === undefined) missing.push(`${at}.title`)
  for (const parameter of document.parameters) {
    const words = own(translation.parameters, parameter.name)
    if (words?.title === undefined) missing.push(`${at}.parameters.${parameter.name}.title`)
    for (const option of parameter.options ?? [])
      if (typeof option.title === "string" && own(words?.options, option.id) === undefined)
        missing.push(`${at}.parameters.${parameter.name}.options.${option.id}`)
  }
  for (const feature of document.features) {
    const words = own(translation.features, feature.name)
    if (words?.title === undefined) missing.push(`${at}.features.${feature.name}.title`)
    if (words?.description === undefined) missing.push(`${at}.features.${feature.name}.description`)
  }
  for (const variant of document.variants)
    if (own(translation.variants, variant.name) === undefined) missing.push(`${at}.variants.${variant.name}`)
  for (const coverage of Object.keys(document.coverages))
    if (own(translation.coverages, coverage) === undefined) missing.push(`${at}.coverages.${coverage}`)
  return missing
}
