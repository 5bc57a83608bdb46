/**
 * `kasko portfolio generate` and `kasko tariff impact` for a product added as data, run as the built
 * `kasko` against `--products examples/products`: a seeded book of the van product, valid for it
 * case by case, and what the seed products' book was without `--product`.
 */
import { Offer } from "@kasko/core/actuarial"
import { ProductFolders } from "@kasko/server"
import { ADDED_PRODUCT_DISTRIBUTIONS } from "@kasko/workbench"
import { parse } from "csv-parse/sync"
import { Result } from "effect"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const KASKO = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const PRODUCTS = join(ROOT, "examples", "products")
const VAN = "insurance-van-business"
const directory = temporaryDirectory("kasko-added-product-book-")
afterAll(() => directory.remove())

/** The built command, run as a process from the repository's root. */
const kasko = (...args: Array<string>) => {
  const run = spawnSync(process.execPath, [KASKO, ...args], { encoding: "utf8", cwd: ROOT })
  return { exitCode: run.status, stdout: run.stdout, stderr: run.stderr }
}

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
