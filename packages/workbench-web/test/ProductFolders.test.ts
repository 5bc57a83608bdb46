/** A products directory as the page holds it: the catalogue its folders make, their versions and tariffs. */
import { ProductCatalogue } from "@kasko/core/actuarial"
import { describe, expect, it } from "vitest"
import {
  folderCatalogue,
  isFolderTariffFile,
  placeOfText,
  productVersionFiles,
  withFile
} from "../src/model/ProductFolders.js"
import { VAN_DOCUMENT, vanFolder, vanWith } from "./fixtures.js"

describe("the catalogue of a products directory", () => {
  it("holds the shipped products and each folder's product, as kasko serve --products loads them", () => {
    const { catalogue, problems } = folderCatalogue([vanFolder()])
    expect(catalogue.productNames).toEqual([...ProductCatalogue.shipped.productNames, "insurance-van-business"])
    expect(catalogue.document("insurance-van-business")?.parameters.map((parameter) => parameter.name)).toContain(
      "annual_mileage_km"
    )
    expect(problems).toEqual([])
  })

  it("holds every version of a folder's product, each in force from its date, as kasko serve --products does", () => {
    const v2 = vanWith((document) =>
      Object.assign(document, { version: "v2", effective_from: "2027-01-01", title: "Varevogn 2027" })
    )
    const { catalogue, problems } = folderCatalogue([vanFolder({ "versions/v2.json": v2 })])
    expect(catalogue.versionsOf("insurance-van-business").map((version) => version.version)).toEqual(["v1", "v2"])
    expect(catalogue.on("2026-06-01").document("insurance-van-business")?.title).toBe(
      "Erhvervsforsikring til varevogn, forhandler"
    )
    expect(catalogue.on("2027-01-01").document("insurance-van-business")?.title).toBe("Varevogn 2027")
    expect(problems).toEqual([])
  })

  it("is the shipped catalogue itself without folders, so that nothing made of it is made again", () => {
    expect(folderCatalogue([]).catalogue).toBe(ProductCatalogue.shipped)
  })

  it("leaves out a folder whose document no longer decodes, and says so", () => {
    const broken = vanFolder({
      "product.json": vanWith((document) => Object.assign(document, { effective_from: "soon" }))
    })
    const { catalogue, problems } = folderCatalogue([broken])
    expect(catalogue.productNames).toEqual(ProductCatalogue.shipped.productNames)
    expect(problems).toEqual([
      expect.stringMatching(/^insurance-van-business\/product\.json does not decode: .*effective_from/s)
    ])
  })
})

describe("a product folder's files", () => {
  it("lists the product's versions, its document first, then versions/ in name order", () => {
    const folder = vanFolder({ "versions/v3.json": "{}", "versions/v2.json": "{}", "tariffs/v2.json": "{}" })
    expect(productVersionFiles([folder]).map((version) => version.key)).toEqual([
      "insurance-van-business/product.json",
      "insurance-van-business/versions/v2.json",
      "insurance-van-business/versions/v3.json"
    ])
  })

  it("tells its tariffs from its other files", () => {
    expect(
      ["tariffs/v1.json", "versions/v1.json", "product.json", "tariffs/old/v0.json"].map(isFolderTariffFile)
    ).toEqual([true, false, false, false])
  })

  it("puts an edited text in one folder's file, leaving its other files and the other folders", () => {
    const other = { folder: "other", files: new Map([["product.json", "{}"]]) }
    const [edited, untouched] = withFile([vanFolder(), other], "insurance-van-business", "versions/v2.json", "{ v2 }")
    expect(edited!.files.get("versions/v2.json")).toBe("{ v2 }")
    expect(edited!.files.get("product.json")).toBe(VAN_DOCUMENT)
    expect(untouched).toBe(other)
    expect(vanFolder().files.has("versions/v2.json")).toBe(false)
  })

  it("places an edited document as the version it declares: in that version's file, else where saving it writes", () => {
    const v2 = vanWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
    const folder = vanFolder({ "versions/second.json": v2 })
    // v1 edited is v1's file; a new version is the file saving it writes; v2 edited is the file that holds v2
    expect(
      placeOfText(
        folder,
        "product.json",
        vanWith((document) => Object.assign(document, { title: "x" }))
      )
    ).toBe("product.json")
    expect(placeOfText(folder, "product.json", v2.replace('"v2"', '"v3"'))).toBe("versions/v3.json")
    expect(placeOfText(vanFolder(), "product.json", v2)).toBe("versions/v2.json")
    expect(placeOfText(folder, "product.json", v2)).toBe("versions/second.json")
    // a text that names no version a file can take stays where it was opened
    expect(placeOfText(folder, "versions/second.json", "{")).toBe("versions/second.json")
    expect(placeOfText(folder, "product.json", v2.replace('"v2"', '"../v2"'))).toBe("product.json")
  })
})
