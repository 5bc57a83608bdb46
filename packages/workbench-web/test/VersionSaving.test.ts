import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { saveTariffVersion } from "../src/server/VersionSaving.js"
import { LEASING_V1, leasingWith, productsDirectoryCopy, tariffDirectoryCopy, VAN_V1, vanFolder } from "./fixtures.js"

describe("saving a tariff version", () => {
  let directory: ReturnType<typeof tariffDirectoryCopy>
  beforeEach(() => {
    directory = tariffDirectoryCopy()
  })
  afterEach(() => directory.remove())

  it("writes a new version as <product>/<version>.json", () => {
    const source = leasingWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
    expect(saveTariffVersion(directory.path, source, "2026-03-02")).toEqual({
      _tag: "Saved",
      file: "insurance-car-leasing/v2.json"
    })
    expect(readFileSync(join(directory.path, "insurance-car-leasing", "v2.json"), "utf8")).toBe(source)
  })

  it("never overwrites a version whose effective_from has passed, and leaves its file as it was", () => {
    const changed = leasingWith((document) => Object.assign(document, { monthly_surcharge_percent: 7 }))
    const outcome = saveTariffVersion(directory.path, changed, "2026-03-02")
    expect(outcome).toMatchObject({ _tag: "Refused", kind: "in-effect" })
    expect(outcome._tag === "Refused" && outcome.reason).toMatch(
      /insurance-car-leasing\/v1\.json took effect on 2025-01-01.*never overwritten/
    )
    expect(readFileSync(join(directory.path, "insurance-car-leasing", "v1.json"), "utf8")).toBe(LEASING_V1)
  })

  it("refuses a version that takes effect today: it has taken effect", () => {
    const source = leasingWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
    saveTariffVersion(directory.path, source, "2026-03-02")
    expect(
      saveTariffVersion(
        directory.path,
        source.replace('"monthly_surcharge_percent": 5', '"monthly_surcharge_percent": 6'),
        "2027-01-01"
      )
    ).toMatchObject({
      _tag: "Refused",
      kind: "in-effect"
    })
  })

  it("overwrites a version that has not yet taken effect, in the file it was read from", () => {
    const proposal = leasingWith((document) =>
      Object.assign(document, { version: "v2-proposal", effective_from: "2027-01-01" })
    )
    writeFileSync(join(directory.path, "proposal.json"), proposal)
    const revised = proposal.replace('"monthly_surcharge_percent": 5', '"monthly_surcharge_percent": 6')
    expect(saveTariffVersion(directory.path, revised, "2026-03-02")).toEqual({ _tag: "Saved", file: "proposal.json" })
    expect(readFileSync(join(directory.path, "proposal.json"), "utf8")).toBe(revised)
    expect(existsSync(join(directory.path, "insurance-car-leasing", "v2-proposal.json"))).toBe(false)
  })

  it("refuses a text the engine would not load, saying why", () => {
    expect(saveTariffVersion(directory.path, "{", "2026-03-02")).toMatchObject({
      _tag: "Refused",
      kind: "invalid",
      reason: expect.stringMatching(/not JSON/)
    })
    const wrongCurrency = leasingWith((document) =>
      Object.assign(document, { version: "v3", effective_from: "2027-01-01", currency: "EUR" })
    )
    expect(saveTariffVersion(directory.path, wrongCurrency, "2026-03-02")).toMatchObject({
      _tag: "Refused",
      kind: "invalid",
      reason: expect.stringMatching(/currency/)
    })
    expect(existsSync(join(directory.path, "insurance-car-leasing", "v3.json"))).toBe(false)
  })

  it("refuses a version name that is not a plain file name", () => {
    const escaping = leasingWith((document) =>
      Object.assign(document, { version: "../../escape", effective_from: "2027-01-01" })
    )
    expect(saveTariffVersion(directory.path, escaping, "2026-03-02")).toMatchObject({
      _tag: "Refused",
      kind: "invalid",
      reason: expect.stringMatching(/names the file/)
    })
  })

  it("refuses a new version that takes effect before today, unless the workbench allows it", () => {
    const backdated = leasingWith((document) =>
      Object.assign(document, { version: "v2", effective_from: "2026-03-01" })
    )
    const outcome = saveTariffVersion(directory.path, backdated, "2026-03-02")
    expect(outcome).toMatchObject({ _tag: "Refused", kind: "backdated" })
    expect(outcome._tag === "Refused" && outcome.reason).toMatch(/2026-03-01, before today \(2026-03-02\)/)
    expect(existsSync(join(directory.path, "insurance-car-leasing", "v2.json"))).toBe(false)
    expect(saveTariffVersion(directory.path, backdated, "2026-03-02", { allowBackdated: true })).toEqual({
      _tag: "Saved",
      file: "insurance-car-leasing/v2.json"
    })
  })

  describe("a symbolic link in the tariff tree", () => {
    let outside: string
    beforeEach(() => {
      outside = mkdtempSync(join(tmpdir(), "kasko-outside-"))
    })
    afterEach(() => rmSync(outside, { recursive: true, force: true }))

    it("is never written through: a product directory that links elsewhere keeps its version in force as it was", () => {
      // the product's directory moved outside the tariff tree and linked back: the listing does not follow it
      renameSync(join(directory.path, "insurance-car-leasing"), join(outside, "leasing"))
      symlinkSync(join(outside, "leasing"), join(directory.path, "insurance-car-leasing"))
      const changed = leasingWith((document) => Object.assign(document, { monthly_surcharge_percent: 7 }))
      const outcome = saveTariffVersion(directory.path, changed, "2026-03-02")
      expect(outcome).toMatchObject({ _tag: "Refused", kind: "outside" })
      expect(outcome._tag === "Refused" && outcome.reason).toMatch(/insurance-car-leasing is a symbolic link/)
      expect(readFileSync(join(outside, "leasing", "v1.json"), "utf8")).toBe(LEASING_V1)
    })

    it("is never written through: a version file that links elsewhere is left, and so is its target", () => {
      writeFileSync(join(outside, "v2.json"), "outside\n")
      symlinkSync(join(outside, "v2.json"), join(directory.path, "insurance-car-leasing", "v2.json"))
      const source = leasingWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
      expect(saveTariffVersion(directory.path, source, "2026-03-02")).toMatchObject({
        _tag: "Refused",
        kind: "outside"
      })
      expect(readFileSync(join(outside, "v2.json"), "utf8")).toBe("outside\n")
    })
  })

  describe("a tariff of a product added as files", () => {
    let products: ReturnType<typeof productsDirectoryCopy>
    beforeEach(() => {
      products = productsDirectoryCopy()
    })
    afterEach(() => products.remove())

    const vanWith = (change: Record<string, unknown>) =>
      `${JSON.stringify({ ...JSON.parse(VAN_V1), ...change }, null, 2)}\n`
    const options = () => ({ products: { directory: products.path, folders: [vanFolder()] } })

    it("is saved in its product's folder, as <product>/tariffs/<version>.json of the products directory", () => {
      const v2 = vanWith({ version: "v2", effective_from: "2027-01-01" })
      expect(saveTariffVersion(directory.path, v2, "2026-03-02", options())).toEqual({
        _tag: "Saved",
        file: "insurance-van-business/tariffs/v2.json"
      })
      expect(readFileSync(join(products.path, "insurance-van-business", "tariffs", "v2.json"), "utf8")).toBe(v2)
      expect(existsSync(join(directory.path, "insurance-van-business"))).toBe(false)
    })

    it("is never saved so that the folder fails the check the service loads it with", () => {
      // a second version taking effect on v1's date: kasko serve would refuse the whole directory
      const sameDate = vanWith({ version: "v2", effective_from: "2026-01-01" })
      const outcome = saveTariffVersion(directory.path, sameDate, "2025-12-01", options())
      expect(outcome).toMatchObject({ _tag: "Refused", kind: "invalid" })
      expect(outcome._tag === "Refused" && outcome.reason).toMatch(
        /insurance-van-business\/tariffs\/v2\.json: effective_from: is 2026-01-01, as in tariffs\/v1\.json/
      )
      expect(existsSync(join(products.path, "insurance-van-business", "tariffs", "v2.json"))).toBe(false)
    })

    it("never overwrites its version that has taken effect", () => {
      const changed = vanWith({ monthly_surcharge_percent: 7 })
      expect(saveTariffVersion(directory.path, changed, "2026-03-02", options())).toMatchObject({
        _tag: "Refused",
        kind: "in-effect",
        reason: expect.stringMatching(/^insurance-van-business\/tariffs\/v1\.json took effect on 2026-01-01/)
      })
    })

    it("is refused without the products, which the engine would not load it for", () => {
      expect(saveTariffVersion(directory.path, vanWith({ version: "v2" }), "2026-03-02")).toMatchObject({
        _tag: "Refused",
        kind: "invalid",
        reason: expect.stringMatching(/would not load it/)
      })
    })
  })
})
