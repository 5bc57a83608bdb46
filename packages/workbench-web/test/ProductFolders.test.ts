/** A products directory as the page holds it: the catalogue its folders make, their versions and tariffs. */
import { ProductCatalogue, ProductCheck } from "@kasko/core/actuarial"
import { describe, expect, it } from "vitest"
import {
  folderCatalogue,
  isFolderTariffFile,
  PRODUCT_FILE,
  productVersionFiles,
  TARIFF_FOLDER,
  withDocument
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

  it("names the product document's file and the tariffs' folder as the checker does", () => {
    expect([PRODUCT_FILE, TARIFF_FOLDER]).toEqual([ProductCheck.PRODUCT_FILE, ProductCheck.TARIFF_FOLDER])
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

  it("puts an edited text in place of one folder's document, leaving its other files and the other folders", () => {
    const other = { folder: "other", files: new Map([["product.json", "{}"]]) }
    const [edited, untouched] = withDocument([vanFolder(), other], "insurance-van-business", "{ edited }")
    expect(edited!.files.get("product.json")).toBe("{ edited }")
    expect(edited!.files.get("tariffs/v1.json")).toBeDefined()
    expect(untouched).toBe(other)
    expect(vanFolder().files.get("product.json")).toBe(VAN_DOCUMENT)
  })
})
