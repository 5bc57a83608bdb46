/** Saving an edited product document as a new version of its folder: the tariff editor's rules, and the checker's. */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { saveProductVersion } from "../src/server/ProductVersionSaving.js"
import { productsDirectoryCopy, vanFolder, vanWith } from "./fixtures.js"

const TODAY = "2026-03-02"
const v2 = vanWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
const versionsFolder = (directory: string) => join(directory, "insurance-van-business", "versions")

describe("saving a product version", () => {
  let directory: ReturnType<typeof productsDirectoryCopy>
  beforeEach(() => {
    directory = productsDirectoryCopy()
  })
  afterEach(() => directory.remove())

  it("writes a new version as <product>/versions/<version>.json, leaving product.json as it was", () => {
    expect(saveProductVersion(directory.path, [vanFolder()], v2, TODAY)).toEqual({
      _tag: "Saved",
      file: "insurance-van-business/versions/v2.json"
    })
    expect(readFileSync(join(versionsFolder(directory.path), "v2.json"), "utf8")).toBe(v2)
    expect(readFileSync(join(directory.path, "insurance-van-business", "product.json"), "utf8")).toBe(
      vanFolder().files.get("product.json")
    )
  })

  it("never writes over an existing version, product.json's or one of versions/", () => {
    const again = vanWith((document) => Object.assign(document, { effective_from: "2027-01-01" }))
    expect(saveProductVersion(directory.path, [vanFolder()], again, TODAY)).toMatchObject({
      _tag: "Refused",
      kind: "in-effect",
      reason: expect.stringMatching(/^insurance-van-business\/product\.json holds version v1 .* never overwritten/)
    })
    const folder = vanFolder({ "versions/v2.json": v2 })
    const changed = v2.replace("2027-01-01", "2027-02-01")
    expect(saveProductVersion(directory.path, [folder], changed, TODAY)).toMatchObject({
      _tag: "Refused",
      kind: "in-effect",
      reason: expect.stringMatching(
        /^insurance-van-business\/versions\/v2\.json is there already: .* never overwritten/
      )
    })
    expect(existsSync(join(versionsFolder(directory.path), "v2.json"))).toBe(false)
    // nor over the file a version would be written to, whatever version that file says it holds
    const misnamed = vanFolder({ "versions/v2.json": v2.replace('"version": "v2"', '"version": "v2-draft"') })
    expect(saveProductVersion(directory.path, [misnamed], changed, TODAY)).toMatchObject({
      _tag: "Refused",
      kind: "in-effect",
      reason: expect.stringMatching(/^insurance-van-business\/versions\/v2\.json is there already/)
    })
  })

  it("refuses a second version taking effect on the date another does", () => {
    const sameDay = vanWith((document) => Object.assign(document, { version: "v2" }))
    expect(saveProductVersion(directory.path, [vanFolder()], sameDay, "2025-12-01")).toMatchObject({
      _tag: "Refused",
      kind: "in-effect",
      reason: expect.stringMatching(/takes effect on 2026-01-01 already/)
    })
  })

  it("refuses a document the checker finds an error in, naming every error", () => {
    const broken = vanWith((document) =>
      Object.assign(document, { version: "v2", effective_from: "2027-01-01", parameters: [] })
    )
    const outcome = saveProductVersion(directory.path, [vanFolder()], broken, TODAY)
    expect(outcome).toMatchObject({ _tag: "Refused", kind: "invalid" })
    expect(outcome._tag === "Refused" && outcome.reason).toMatch(
      /^the product folder would not pass the check: insurance-van-business\/.*; /
    )
    expect(existsSync(versionsFolder(directory.path))).toBe(false)
  })

  it("refuses a text that is not a product document, and a product the directory has no folder for", () => {
    expect(saveProductVersion(directory.path, [vanFolder()], "{", TODAY)).toMatchObject({
      _tag: "Refused",
      kind: "invalid",
      reason: expect.stringMatching(/is not JSON/)
    })
    const other = v2.replace('"product_name": "insurance-van-business"', '"product_name": "insurance-bus"')
    expect(saveProductVersion(directory.path, [vanFolder()], other, TODAY)).toMatchObject({
      _tag: "Refused",
      kind: "invalid",
      reason: expect.stringMatching(/has no product folder insurance-bus/)
    })
  })

  it("refuses a version name that is not a plain file name", () => {
    const escaping = vanWith((document) =>
      Object.assign(document, { version: "../../escape", effective_from: "2027-01-01" })
    )
    expect(saveProductVersion(directory.path, [vanFolder()], escaping, TODAY)).toMatchObject({
      _tag: "Refused",
      kind: "invalid",
      reason: expect.stringMatching(/names the file/)
    })
  })

  it("refuses a new version that takes effect before today, unless the workbench allows it", () => {
    const backdated = vanWith((document) => Object.assign(document, { version: "v2", effective_from: "2026-03-01" }))
    const outcome = saveProductVersion(directory.path, [vanFolder()], backdated, TODAY)
    expect(outcome).toMatchObject({ _tag: "Refused", kind: "backdated" })
    expect(outcome._tag === "Refused" && outcome.reason).toMatch(/2026-03-01, before today \(2026-03-02\)/)
    expect(saveProductVersion(directory.path, [vanFolder()], backdated, TODAY, { allowBackdated: true })).toEqual({
      _tag: "Saved",
      file: "insurance-van-business/versions/v2.json"
    })
  })

  it("is never written through a symbolic link in the products directory", () => {
    const outside = mkdtempSync(join(tmpdir(), "kasko-outside-"))
    try {
      symlinkSync(outside, versionsFolder(directory.path))
      expect(saveProductVersion(directory.path, [vanFolder()], v2, TODAY)).toMatchObject({
        _tag: "Refused",
        kind: "outside",
        reason: expect.stringMatching(/insurance-van-business\/versions is a symbolic link/)
      })
      expect(existsSync(join(outside, "v2.json"))).toBe(false)
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })
})
