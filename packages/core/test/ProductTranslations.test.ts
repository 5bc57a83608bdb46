/**
 * A product's words in English: the product document's `translations.en` in place of its Danish words, the names,
 * rules and codes unchanged; the Danish catalogue is itself; and what a translation lacks is named by its path.
 */
import { describe, expect, it } from "vitest"
import { productInformationDocument } from "../src/documents/ProductInformation.js"
import { PRIVACY_POLICIES, PRIVACY_POLICY } from "../src/documents/PrivacyPolicy.js"
import { fromDocuments, shipped } from "../src/product/ProductCatalogue.js"
import { inLanguage, missingTranslations, translatedDocument } from "../src/product/ProductTranslations.js"
import { decodeTariffs, SHIPPED_TARIFF_DOCUMENTS } from "../src/pricing/TariffDocuments.js"

const LEASING = "insurance-car-leasing"

describe("a product in English", () => {
  it("has the English titles of its product, parameters, options and features", () => {
    const english = inLanguage(shipped, "en").definition(LEASING)!
    expect(english.title).toBe("Partner car insurance, leasing")
    const policyHolder = english.parameters.find((parameter) => parameter.name === "policy_holder")!
    expect(policyHolder.title).toBe("Policyholder")
    expect(policyHolder.options).toEqual([
      { id: "person", title: "Private person" },
      { id: "organization", title: "Business" }
    ])
    // a number an option is titled with is the same in English
    const payments = english.parameters.find((parameter) => parameter.name === "payments_per_year")!
    expect(payments.options).toEqual([
      { id: "1", title: 1 },
      { id: "12", title: 12 }
    ])
    expect(english.features.map((feature) => feature.title)).toEqual(["Standard", "Premium"])
    expect(english.features[1]!.description).toMatch(/^Standard with extended covers/)
  })

  it("keeps every name, type, range and rule of the Danish document", () => {
    for (const document of shipped.versions) {
      const english = translatedDocument(document, "en")
      const skeleton = (words: typeof document) => ({
        ...words,
        title: "",
        translations: undefined,
        parameters: words.parameters.map((parameter) => ({
          ...parameter,
          title: "",
          options: parameter.options?.map((option) => option.id)
        })),
        features: words.features.map((feature) => ({ ...feature, title: "", description: "" })),
        variants: words.variants.map((variant) => ({ ...variant, terms: undefined })),
        coverages: Object.keys(words.coverages)
      })
      expect(skeleton(english)).toEqual(skeleton(document))
      expect(english.title).not.toBe(document.title)
    }
  })

  it("is the Danish catalogue itself in Danish, and one catalogue per language", () => {
    expect(inLanguage(shipped, "da")).toBe(shipped)
    expect(inLanguage(shipped, "en")).toBe(inLanguage(shipped, "en"))
    expect(inLanguage(shipped, "en").productNames).toEqual(shipped.productNames)
    expect(inLanguage(shipped, "en").quotedProductNames).toEqual(shipped.quotedProductNames)
  })

  it("is Danish where its translation says nothing", () => {
    const leasing = shipped.document(LEASING)!
    const partial = { ...leasing, translations: { en: { title: "Leasing" } } }
    const english = translatedDocument(partial, "en")
    expect(english.title).toBe("Leasing")
    expect(english.parameters).toEqual(leasing.parameters)
    expect(english.coverages).toEqual(leasing.coverages)
    expect(translatedDocument({ ...leasing, translations: {} }, "en")).toEqual({ ...leasing, translations: {} })
  })
})

describe("the words a translation lacks", () => {
  it("are none for the shipped products", () => {
    expect(shipped.versions.map((document) => missingTranslations(document, "en"))).toEqual([[], []])
  })

  it("are none in Danish, the documents' own language", () => {
    const { translations: _, ...untranslated } = shipped.document(LEASING)!
    expect(missingTranslations(untranslated, "da")).toEqual([])
  })

  it("are the whole section when a document has no English", () => {
    const { translations: _, ...untranslated } = shipped.document(LEASING)!
    expect(missingTranslations(untranslated, "en")).toEqual(["translations.en"])
  })

  it("are named by their paths: a title, an option, a feature's description, a variant, a coverage", () => {
    const leasing = shipped.document(LEASING)!
    const en = leasing.translations!.en!
    const { vehicle_type: vehicleType, ...otherParameters } = en.parameters!
    const { standard: _standard, ...otherVariants } = en.variants!
    const { kasko: _kasko, ...otherCoverages } = en.coverages!
    const { title: _title, ...untitled } = en
    const lacking = {
      ...leasing,
      translations: {
        en: {
          ...untitled,
          parameters: {
            ...otherParameters,
            vehicle_type: { title: vehicleType!.title!, options: { personbil: "Car" } }
          },
          features: { ...en.features, premium: { title: "Premium" } },
          variants: otherVariants,
          coverages: otherCoverages
        }
      }
    }
    expect(missingTranslations(lacking, "en")).toEqual([
      "translations.en.title",
      "translations.en.parameters.vehicle_type.options.varevogn",
      "translations.en.features.premium.description",
      "translations.en.variants.standard",
      "translations.en.coverages.kasko"
    ])
  })
})

describe("documents in English", () => {
  const tariff = decodeTariffs(SHIPPED_TARIFF_DOCUMENTS).find((candidate) => candidate.product_name === LEASING)!

  it("write the IPID's frame and the product's words in English, the Danish IPID unchanged beside it", () => {
    const danish = productInformationDocument(tariff, "standard", "2026-03-02")
    const english = productInformationDocument(tariff, "standard", "2026-03-02", shipped, "en")
    expect(english.language).toBe("en")
    expect(english.title).toBe("Insurance Product Information Document (IPID)")
    expect(english.subtitle).toBe("Partner car insurance, leasing – Standard, private")
    expect(english.sections.map((section) => section.heading)[0]).toBe("What is this type of insurance?")
    expect(english.footer).toMatch(
      /^Kasko Forsikring A\/S, CVR 12345674, Denmark · Tariff v1, in force from 1 January 2025/
    )
    expect(english.cacheKey).not.toBe(danish.cacheKey)
    // asking for English does not replace the Danish one kept
    expect(productInformationDocument(tariff, "standard", "2026-03-02")).toBe(danish)
    expect(danish.title).toBe("Forsikringsproduktinformation (IPID)")
    const table = english.sections[1]!.blocks.find((block) => block.kind === "table")
    if (table?.kind !== "table") throw new Error("no table")
    expect(table.columns.map((column) => column.title)).toEqual(["Cover", "Included in", "Sum insured", "Deductible"])
    expect(table.rows[0]![0]).toBe("Comprehensive")
    expect(table.rows.flat().join(" ")).toMatch(/DKK \d{1,3},\d{3}/)
  })

  it("write the privacy policy in English, the Danish one as before", () => {
    expect(PRIVACY_POLICIES.da).toBe(PRIVACY_POLICY)
    expect(PRIVACY_POLICIES.en.title).toBe("Privacy policy")
    expect(PRIVACY_POLICIES.en.sections.map((section) => section.heading)).toHaveLength(PRIVACY_POLICY.sections.length)
    expect(PRIVACY_POLICIES.en.cacheKey).not.toBe(PRIVACY_POLICY.cacheKey)
  })

  it("a catalogue of documents without English is read in Danish", () => {
    const { translations: _, ...untranslated } = shipped.document(LEASING)!
    const danishOnly = fromDocuments([untranslated])
    expect(inLanguage(danishOnly, "en").definition(LEASING)).toEqual(danishOnly.definition(LEASING))
  })
})
