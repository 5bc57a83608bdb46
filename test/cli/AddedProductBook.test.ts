/**
 * `kasko portfolio generate` and `kasko tariff impact` for a product added as data, run as the built
 * `kasko` against `--products examples/products`: a seeded book of the van product, valid for it
 * case by case (and the seed products' book of today without `--product`); the book re-rated under
 * the van's tariff v1 and the proposed v2 beside the products directory, from a file and from the
 * store's quotes.
 */
import { IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { Offer, Tariff } from "@kasko/core/actuarial"
import { ProductFolders } from "@kasko/server"
import { SqliteStores } from "@kasko/sqlite"
import { ADDED_PRODUCT_DISTRIBUTIONS, portfolioImpact } from "@kasko/workbench"
import { parse } from "csv-parse/sync"
import { Effect, Layer, ManagedRuntime, Result } from "effect"
import { TestClock } from "effect/testing"
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { NOW, temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const KASKO = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const PRODUCTS = join(ROOT, "examples", "products")
const VAN = "insurance-van-business"
const directory = temporaryDirectory("kasko-added-product-book-")
afterAll(() => directory.remove())

const VAN_V1 = join(PRODUCTS, VAN, "tariffs", "v1.json")
const VAN_V2 = join(PRODUCTS, `${VAN}-v2.proposal.json`)

/** The built command, run as a process from the repository's root (with more environment, when given). */
const kaskoWith = (environment: Record<string, string>, ...args: Array<string>) => {
  const run = spawnSync(process.execPath, [KASKO, ...args], {
    encoding: "utf8",
    cwd: ROOT,
    env: { ...process.env, ...environment }
  })
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr }
}
const kasko = (...args: Array<string>) => kaskoWith({}, ...args)

const generateVan = (size: number, seed: number, ...more: Array<string>) =>
  kasko(
    ...["portfolio", "generate", "--products", PRODUCTS, "--product", VAN],
    ...["--size", String(size), "--seed", String(seed), "--as-of", "2027-01-01", ...more]
  )

describe("kasko portfolio generate --products examples/products --product insurance-van-business", () => {
  const catalogue = ProductFolders.fromDirectory(PRODUCTS).catalogue
  const first = generateVan(2_000, 7)

  it("writes the same book for the same seed, its columns the van's parameters", () => {
    expect(first).toMatchObject({ exitCode: 0, stderr: "" })
    expect(generateVan(2_000, 7).stdout).toBe(first.stdout)
    expect(generateVan(2_000, 8).stdout).not.toBe(first.stdout)
    const [header] = first.stdout.split("\n")
    expect(header).toBe(
      [
        "policy_id",
        "product_name",
        "feature",
        ...catalogue.document(VAN)!.parameters.map((parameter) => parameter.name),
        "weight"
      ].join(",")
    )
  })

  it("writes only cases the service would price: each decodes as an offer of the van with no violation", () => {
    const cases = parse(first.stdout, { columns: true }) as Array<Record<string, string>>
    expect(cases).toHaveLength(2_000)
    for (const entry of cases) {
      const parameters = Object.fromEntries(
        Object.entries(entry).filter(
          ([name, value]) => !["policy_id", "product_name", "feature", "weight"].includes(name) && value !== ""
        )
      )
      const decoded = Offer.decodeOfferRequest(
        { product: { product_name: entry["product_name"], parameters, features: [{ name: entry["feature"] }] } },
        "2027-01-01",
        catalogue
      )
      expect(Result.isSuccess(decoded) ? [] : decoded.failure.violations, JSON.stringify(entry)).toEqual([])
    }
  })

  it("writes the seed products' book of today, byte for byte, when no --product is named", () => {
    const seedBook = kasko("portfolio", "generate", "--size", "500", "--seed", "20270101", "--as-of", "2027-01-01")
    const withProducts = kasko(
      ...[
        "portfolio",
        "generate",
        "--products",
        PRODUCTS,
        "--size",
        "500",
        "--seed",
        "20270101",
        "--as-of",
        "2027-01-01"
      ]
    )
    expect(withProducts.stdout).toBe(seedBook.stdout)
    // the committed example book is the generator's for that seed: its first 500 policies are these
    const committed = readFileSync(join(ROOT, "examples", "actuary-workbench", "impact", "portfolio-10000.csv"), "utf8")
    expect(committed.startsWith(seedBook.stdout)).toBe(true)
  })

  it("writes a file with --out, naming the products on standard error and in --json", () => {
    const out = directory.newFile("van-book.csv")
    const written = generateVan(300, 7, "--out", out, "--json")
    expect(written.exitCode).toBe(0)
    expect(JSON.parse(written.stdout)).toEqual({
      file: out,
      policies: 300,
      seed: 7,
      as_of: "2027-01-01",
      products: [VAN]
    })
    expect(readFileSync(out, "utf8")).toBe(generateVan(300, 7).stdout)
    const told = generateVan(300, 7, "--out", out)
    expect(told.stderr).toBe(`wrote 300 policies of ${VAN} (seed 7, ages as of 2027-01-01) to ${out}\n`)
  })

  it("refuses a product the catalogue lacks with the usage (exit 2), naming the products there are", () => {
    const unknown = kasko("portfolio", "generate", "--product", VAN, "--size", "1", "--seed", "1")
    expect(unknown.exitCode).toBe(2)
    expect(unknown.stderr).toContain(
      `--product ${VAN}: no such product; the products are insurance-car-leasing, insurance-car-standalone (--products DIR adds a directory's)`
    )
  })

  it("states in its help how a product added as data is drawn", () => {
    const help = kasko("portfolio", "generate", "--help")
    expect(help.stdout.replace(/\s+/g, " ")).toContain(ADDED_PRODUCT_DISTRIBUTIONS.replace(/\s+/g, " "))
  })
})

describe("kasko tariff impact --products examples/products, of the van's v1 and its proposed v2", () => {
  const loaded = ProductFolders.fromDirectory(PRODUCTS)
  const book = directory.newFile("van-impact-book.csv")
  writeFileSync(book, generateVan(3_000, 12).stdout)
  const impact = (...more: Array<string>) =>
    kasko("tariff", "impact", VAN_V1, VAN_V2, "--portfolio", book, "--products", PRODUCTS, ...more)

  it("prints as JSON what portfolioImpact reports for the tariffs decoded against the loaded catalogue", async () => {
    const printed = impact("--cap-increase", "10%", "--json")
    expect(printed).toMatchObject({ exitCode: 0, stderr: "" })
    const decoded = (file: string) =>
      Result.getOrThrow(Tariff.decodeTariff(JSON.parse(readFileSync(file, "utf8")), loaded.catalogue))
    const expected = await portfolioImpact({
      old: [decoded(VAN_V1)],
      new: [decoded(VAN_V2)],
      products: loaded.productDocuments,
      portfolio: { file: book },
      impact: { cap_increase_percent: 10 }
    })
    const result = JSON.parse(printed.stdout)
    expect(result).toEqual(JSON.parse(JSON.stringify(expected)))
    expect(result.compared).toEqual([{ product_name: VAN, old_version: "v1", new_version: "v2" }])
    expect(result.pricing_date).toBe("2027-01-01")
    expect(result.report.totals.policies).toBe(3_000)
    expect(result.report.rejected.cases).toBe(0)
    expect(result.report.totals.change_percent).toBeGreaterThan(0)
  })

  it("breaks the book down by the van's own parameters in text and CSV", () => {
    const text = impact("--top", "2").stdout
    expect(text).toMatch(
      /^Rate impact of insurance-van-business v1 → v2, both priced on 2027-01-01\n3 000 policies priced/
    )
    expect(text).toMatch(/\nBy vehicle type\nvehicle type +policies.*\nvarevogn +3 000 /)
    for (const heading of [
      "By vehicle_usage (Anvendelse af varevognen)",
      "By annual_mileage_km (Kørsel pr. år (km))",
      "By overnight_parking (Parkering om natten)",
      "By tools_cover (Værktøj og varer i varevognen)"
    ])
      expect(text).toContain(`\n${heading}\n`)
    expect(text).toMatch(/\n> 100 000 +\d/)
    const csv = parse(impact("--csv").stdout, { columns: true }) as Array<Record<string, string>>
    expect(csv.filter((row) => row["section"] === "segment annual_mileage_km").map((row) => row["key"])).toEqual([
      "≤ 15 000",
      "15 001–40 000",
      "40 001–60 000",
      "60 001–100 000",
      "> 100 000"
    ])
  })

  it("solves a target on the van's kasko rates", () => {
    const targeted = impact("--target", "+2%", "--factor-on", "kasko", "--json")
    expect(targeted.exitCode).toBe(0)
    expect(JSON.parse(targeted.stdout).target).toMatchObject({ on: "kasko", reachable: true, within_one_krone: true })
  })

  it("prints what examples/products/README.md shows it printing", () => {
    const readme = readFileSync(join(PRODUCTS, "README.md"), "utf8")
    const shown = /\$ npx kasko portfolio generate (.*)\n(.*)\n\$ npx kasko tariff impact (.*)\n([\s\S]*?)```/.exec(
      readme
    )!
    const [, generateArgs, generated, impactArgs, printed] = shown
    const out = directory.newFile("readme-van-book.csv")
    const words = (line: string) => line.split(" ").map((word) => (word === "van-book.csv" ? out : word))
    expect(kasko("portfolio", "generate", ...words(generateArgs!)).stderr).toBe(
      `${generated!.replace("van-book.csv", out)}\n`
    )
    const report = kasko("tariff", "impact", ...words(impactArgs!)).stdout
    // each run of lines the README shows between its elisions is printed as it shows it
    for (const part of printed!.split("…\n")) expect(report).toContain(part)
    expect(printed!.split("…\n").length).toBeGreaterThan(2)
  })

  it("refuses a products directory that cannot load, as every command does (exit 2), before any book is read", () => {
    const broken = join(ROOT, "test", "cli", "fixtures", "broken-products", "several-mistakes")
    const refused = kasko("tariff", "impact", VAN_V1, VAN_V2, "--portfolio", book, "--products", broken)
    expect(refused).toMatchObject({ exitCode: 2, stdout: "" })
    expect(refused.stderr).toContain(`kasko tariff impact: ${broken} holds products kasko cannot load (8 errors):`)
    const generating = kasko("portfolio", "generate", "--size", "1", "--seed", "1", "--products", broken)
    expect(generating).toMatchObject({ exitCode: 2, stdout: "" })
  })

  it("refuses the van's tariffs without --products, naming the file (exit 1)", () => {
    const refused = kasko("tariff", "impact", VAN_V1, VAN_V2, "--portfolio", book)
    expect(refused).toMatchObject({ exitCode: 1, stdout: "" })
    expect(refused.stderr).toMatch(new RegExp(`^kasko tariff impact: OLD ${VAN_V1} is not a tariff kasko can load: `))
  })

  it("re-rates the van quotes in the store with --from-store --products: quoted under v1, they re-rate to what they were quoted", async () => {
    const dataDirectory = directory.newFile("van-store")
    mkdirSync(dataDirectory)
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(
        SqliteStores.layer({ filename: join(dataDirectory, "kasko.db") }),
        TariffBook.ofCatalogue(loaded.catalogue, loaded.tariffDocuments),
        IdGenerator.layerSequential,
        TestClock.layer()
      )
    )
    const request = JSON.parse(readFileSync(join(ROOT, "examples", "requests", "van-quote.json"), "utf8"))
    const parking = ["garage", "firmaareal", "gade"]
    try {
      await runtime.runPromise(
        Effect.andThen(
          TestClock.setTime(NOW),
          Effect.forEach(Array.from({ length: 9 }), (_, index) =>
            QuotingService.createQuote("bilhuset", {
              ...request,
              product: {
                ...request.product,
                parameters: {
                  ...request.product.parameters,
                  vehicle_price: String(200_000 + 25_000 * index),
                  annual_mileage_km: String(8_000 + 14_000 * index),
                  overnight_parking: parking[index % 3]
                }
              }
            })
          )
        )
      )
    } finally {
      await runtime.dispose()
    }
    const fromStore = (...args: Array<string>) =>
      kaskoWith(
        { KASKO_DATA_DIR: dataDirectory },
        "tariff",
        "impact",
        ...args,
        "--from-store",
        "--date",
        "2026-03-02",
        "--json"
      )
    const same = fromStore(VAN_V1, VAN_V1, "--products", PRODUCTS)
    expect(same).toMatchObject({ exitCode: 0, stderr: "" })
    const report = JSON.parse(same.stdout).report
    expect(report.totals).toMatchObject({ policies: 9, affected: 0 })
    expect(report.current).toMatchObject({ policies: 9, differing: 0 })
    const moved = JSON.parse(fromStore(VAN_V1, VAN_V2, "--products", PRODUCTS).stdout).report
    expect(moved.totals).toMatchObject({ policies: 9, affected: 9 })
    expect(moved.parameter_segments.map((segments: { parameter: string }) => segments.parameter)).toContain(
      "annual_mileage_km"
    )
    // without the products, the shipped catalogue has no van: its quotes are rejected, each with the reason
    const shipped = join(ROOT, "packages", "core", "tariffs")
    const withoutProducts = JSON.parse(fromStore(shipped, shipped).stdout).report
    expect(withoutProducts.rejected.cases).toBe(9)
    expect(withoutProducts.rejected.reasons.map((reason: { reason: string }) => reason.reason)).toContain(
      "product_name: must be one of: insurance-car-leasing, insurance-car-standalone"
    )
  })
})
