/**
 * examples/products holds a third car product as files only (issue 44, item 4): `kasko products check` finds no
 * error and no warning in it, its README shows what the command prints, and it differs from the seed products as
 * the README promises — an enum and a number parameter neither seed product has, both facts its tariff's rules
 * read, and features, quoted product names and a coverage of its own.
 */
import { type Tariff as TariffModule, TariffCompiler } from "@kasko/core/actuarial"
import { runCli } from "@kasko/server"

type Condition = TariffModule.Condition
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const EXAMPLES = join(ROOT, "examples", "products")
const PRODUCT = "insurance-van-business"
const SEEDS = ["insurance-car-leasing", "insurance-car-standalone"]

interface Parameter {
  readonly name: string
  readonly type: "enum" | "number" | "date"
  readonly fact?: boolean
}
interface Product {
  readonly parameters: ReadonlyArray<Parameter>
  readonly features: ReadonlyArray<{ readonly name: string }>
  readonly variants: ReadonlyArray<{
    readonly name: string
    readonly when?: unknown
    readonly quoted_product_name: string
    readonly terms: { readonly title: string }
  }>
  readonly coverages: Readonly<Record<string, unknown>>
}
interface Tariff {
  readonly rules: ReadonlyArray<{ readonly conditions: Condition }>
}

const json = <A>(...path: Array<string>): A => JSON.parse(readFileSync(join(...path), "utf8")) as A

const example = json<Product>(EXAMPLES, PRODUCT, "product.json")
const tariff = json<Tariff>(EXAMPLES, PRODUCT, "tariffs", "v1.json")
const seeds = SEEDS.map((name) => json<Product>(ROOT, "packages", "core", "products", name, "product.json"))

const readByTariff = new Set(
  tariff.rules.flatMap((rule) => TariffCompiler.factConditionsOf(rule.conditions).map(({ fact }) => fact))
)
const inSeeds = <A>(of: (product: Product) => ReadonlyArray<A>): Set<A> => new Set(seeds.flatMap(of))

describe("the example product in examples/products", () => {
  it("passes kasko products check with no error and no warning", async () => {
    expect(await runCli(["products", "check", EXAMPLES])).toEqual({
      stdout: "1 product folder checked: 0 errors, 0 warnings\n",
      stderr: "",
      exitCode: 0
    })
  })

  it("prints what examples/products/README.md shows it printing", async () => {
    const readme = readFileSync(join(EXAMPLES, "README.md"), "utf8")
    const shown = /\$ npx kasko products check examples\/products\n([\s\S]*?)```/.exec(readme)
    expect(shown?.[1]).toBe((await runCli(["products", "check", EXAMPLES])).stdout)
  })

  it("has an enum and a number parameter neither seed product has, both facts its tariff's rules read", () => {
    const seedParameters = inSeeds((product) => product.parameters.map((parameter) => parameter.name))
    const own = example.parameters.filter((parameter) => !seedParameters.has(parameter.name))
    const priced = own.filter((parameter) => parameter.fact === true && readByTariff.has(parameter.name))
    expect(priced.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: "annual_mileage_km", type: "number" },
      { name: "overnight_parking", type: "enum" },
      { name: "tools_cover", type: "enum" }
    ])
  })

  it("has features, quoted product names and a variant rule of its own", () => {
    const seedFeatures = inSeeds((product) => product.features.map((feature) => feature.name))
    expect(example.features.map((feature) => feature.name)).toEqual(["basis", "plus"])
    expect(example.features.filter((feature) => seedFeatures.has(feature.name))).toEqual([])

    const seedNames = inSeeds((product) => product.variants.map((variant) => variant.quoted_product_name))
    expect(example.variants.map((variant) => variant.quoted_product_name)).toEqual([
      "business-insurance-van-craft",
      "business-insurance-van-transport"
    ])
    expect(example.variants.filter((variant) => seedNames.has(variant.quoted_product_name))).toEqual([])

    const seedRules = inSeeds((product) => product.variants.map((variant) => JSON.stringify(variant.when)))
    expect(seedRules.has(JSON.stringify(example.variants[0]!.when))).toBe(false)
    expect(TariffCompiler.factConditionsOf(example.variants[0]!.when as Condition).map(({ fact }) => fact)).toContain(
      "annual_mileage_km"
    )
  })

  it("describes coverages the seed products do not have, and the IPID titles of both variants in Danish", () => {
    const seedCoverages = inSeeds((product) => Object.keys(product.coverages))
    expect(Object.keys(example.coverages).filter((coverage) => !seedCoverages.has(coverage))).toEqual([
      "fastmonteret_indretning",
      "værktøj_og_varer",
      "erstatningsvarevogn"
    ])
    expect(example.variants.map((variant) => variant.terms.title)).toEqual(["Håndværk og service", "Transport"])
  })
})
