/** The product editor's text as a draft: checked in its folder, and in its product's place once it has no error. */
import { ProductDocument, TariffDocuments } from "@kasko/core/actuarial"
import { parser } from "@lezer/json"
import { describe, expect, it } from "vitest"
import { productDraftOf } from "../src/model/ProductDraft.js"
import { folderCatalogue } from "../src/model/ProductFolders.js"
import { completionAt } from "../src/model/SchemaCompletion.js"
import { VAN_DOCUMENT, VAN_V1, vanFolder, vanWith } from "./fixtures.js"

const folders = [vanFolder()]
const { catalogue } = folderCatalogue(folders)
const VAN = "insurance-van-business"

describe("a product draft", () => {
  const v2 = vanWith((document) =>
    Object.assign(document, { title: "Varevogn 2027", version: "v2", effective_from: "2027-01-01" })
  )

  it("joins its product's versions in the catalogue as the new version it declares, once the check finds no error", () => {
    const draft = productDraftOf(folders, VAN, "product.json", v2, catalogue)
    expect(draft.file).toBe("versions/v2.json")
    expect(draft.findings).toEqual([])
    expect(draft.catalogue?.versionsOf(VAN).map((version) => version.version)).toEqual(["v1", "v2"])
    // priced on the dates it is in force; v1 before them
    expect(draft.catalogue?.on("2027-01-01").document(VAN)?.title).toBe("Varevogn 2027")
    expect(draft.catalogue?.on("2026-06-01").document(VAN)?.title).toBe("Erhvervsforsikring til varevogn, forhandler")
    // the shipped products stay as they were, and the catalogue the draft was made from too
    expect(draft.catalogue?.productNames).toEqual(catalogue.productNames)
    expect(catalogue.versionsOf(VAN)).toHaveLength(1)
  })

  it("stands in place of the version it is an edit of", () => {
    const edited = vanWith((document) => Object.assign(document, { title: "Varevogn, rettet" }))
    const draft = productDraftOf(folders, VAN, "product.json", edited, catalogue)
    expect(draft.file).toBe("product.json")
    expect(draft.catalogue?.versionsOf(VAN).map((version) => version.title)).toEqual(["Varevogn, rettet"])
  })

  it("is not offered while the check finds an error in it, and says why", () => {
    const draft = productDraftOf(folders, VAN, "product.json", v2.replace("2027-01-01", "2027-02-30"), catalogue)
    expect(draft.catalogue).toBeUndefined()
    expect(draft.problem).toBe("it has 1 error")
    expect(draft.findings).toEqual([
      expect.objectContaining({ file: `${VAN}/versions/v2.json`, path: "effective_from", severity: "error" })
    ])
  })

  it("is checked against the other versions: a second version on v1's date is an error in it", () => {
    const sameDay = vanWith((document) => Object.assign(document, { version: "v2" }))
    const draft = productDraftOf(folders, VAN, "product.json", sameDay, catalogue)
    expect(draft.catalogue).toBeUndefined()
    expect(draft.findings).toContainEqual(
      expect.objectContaining({
        file: `${VAN}/versions/v2.json`,
        path: "effective_from",
        message: expect.stringMatching(/as in product\.json: one version takes effect on a date/)
      })
    )
  })

  it("is offered when only its folder's tariffs fail with it, which then do not load against it", () => {
    // the mileage no longer given to the tariff, which prices by it
    const draft = productDraftOf(
      folders,
      VAN,
      "product.json",
      vanWith((document) => {
        const parameters = document["parameters"] as Array<Record<string, unknown>>
        delete parameters.find((parameter) => parameter["name"] === "annual_mileage_km")!["fact"]
      }),
      catalogue
    )
    expect(draft.findings).toContainEqual(
      expect.objectContaining({
        file: `${VAN}/tariffs/v1.json`,
        severity: "error",
        message: expect.stringMatching(/annual_mileage_km/)
      })
    )
    expect(draft.catalogue).toBeDefined()
    expect(() => TariffDocuments.decodeTariffs([JSON.parse(VAN_V1)], draft.catalogue)).toThrow(/annual_mileage_km/)
  })

  it("is checked with the other folders: a quoted product name a shipped product answers with is an error", () => {
    const draft = productDraftOf(
      folders,
      VAN,
      "product.json",
      vanWith((document) => {
        const variants = document["variants"] as Array<Record<string, unknown>>
        variants[0]!["quoted_product_name"] = "private-insurance-car-leasing"
      }),
      catalogue
    )
    expect(draft.catalogue).toBeUndefined()
    expect(draft.findings).toContainEqual(
      expect.objectContaining({ path: "variants[0].quoted_product_name", severity: "error" })
    )
  })
})

describe("completion in a product document", () => {
  const complete = (doc: string) =>
    completionAt(ProductDocument.ProductDocument.ast, parser.parse(doc), doc, doc.length)?.options.map(
      (option) => option.label
    )

  it("offers a parameter's types and members from the product document's Schema", () => {
    expect(complete('{"parameters": [{"type": ')).toEqual(['"enum"', '"number"', '"date"'])
    expect(complete('{"parameters": [{"name": "x", ')).toEqual(
      expect.arrayContaining(['"title"', '"type"', '"required"', '"options"', '"minimum"', '"fact"', '"age_of"'])
    )
  })

  it("offers the variants the engine knows and a comparison's operators", () => {
    expect(complete('{"variants": [{"name": ')).toEqual(['"standard"', '"extended"'])
    expect(complete('{"variants": [{"when": {"fact": "x", "operator": ')).toEqual(
      expect.arrayContaining(['"in"', '"equal"', '"lessThanInclusive"'])
    )
  })

  it("leaves what is written alone: the example's document completes its top members with none of them again", () => {
    const doc = `${VAN_DOCUMENT.trimEnd().slice(0, -1).trimEnd()}, `
    expect(complete(doc)).toEqual([])
  })
})
