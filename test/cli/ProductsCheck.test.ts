/**
 * `kasko products check DIR`: a product folder, or a folder of them, checked before anything loads it — every
 * problem printed at once as `file: path: message`, errors first, exit 2 on an error. The broken folders under
 * fixtures/broken-products each hold one kind of mistake in the product of fixtures/a-good-product (and
 * several-mistakes many); fixtures/suspicious-products each one kind of what loads but looks wrong.
 */
import { runCli } from "@kasko/server"
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const FIXTURES = join(import.meta.dirname, "fixtures")
const directory = temporaryDirectory("kasko-products-")
afterAll(() => directory.remove())

const check = (...args: Array<string>) => runCli(["products", "check", ...args])
const printed = (...lines: Array<string>) => ({ stdout: `${lines.join("\n")}\n`, stderr: "" })

/** The shipped products laid out as product folders: `<product>/product.json`, `<product>/tariffs/v1.json`. */
const shippedProducts = (): string => {
  const products = join(directory.path, "shipped")
  for (const name of ["insurance-car-leasing", "insurance-car-standalone"]) {
    mkdirSync(join(products, name, "tariffs"), { recursive: true })
    cpSync(join(ROOT, "packages", "core", "products", name, "product.json"), join(products, name, "product.json"))
    cpSync(join(ROOT, "packages", "core", "tariffs", name, "v1.json"), join(products, name, "tariffs", "v1.json"))
  }
  return products
}

const FLEET = "insurance-car-fleet"

const BROKEN: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  [
    "invalid-json",
    [`error   ${FLEET}/product.json: line 110, column 7: expected ',' or '}' after a member, found '"'`]
  ],
  [
    "unknown-member",
    [
      `error   ${FLEET}/product.json: parameters[6].maxmum: is not a known member: did you mean "maximum"?`,
      `error   ${FLEET}/product.json: parameters[6]: a number parameter has a minimum and a maximum: maximum missing`
    ]
  ],
  ["wrong-type", [`error   ${FLEET}/product.json: parameters[6].minimum: Expected number, got "1000"`]],
  ["bad-date", [`error   ${FLEET}/product.json: effective_from: must be a date YYYY-MM-DD, got "2026-02-29"`]],
  [
    "folder-name",
    [
      `error   insurance-car-flet/product.json: product_name: is "${FLEET}", but the folder is named "insurance-car-flet": a product's folder takes its name`
    ]
  ],
  [
    "rule-unknown-parameter",
    [`error   ${FLEET}/product.json: variants[0].when.all[1].fact: names no parameter of the product: "vehicle_users"`]
  ],
  [
    "vehicle-code-missing",
    [
      `error   ${FLEET}/product.json: vehicle_codes.usage.codes: has no code for "udlejning", an option of vehicle_usage`
    ]
  ],
  [
    "default-not-option",
    [`error   ${FLEET}/product.json: parameters[0].default: "4" is not one of the options: 1, 12`]
  ],
  [
    "tariff-other-product",
    [
      `error   ${FLEET}/tariffs/v1.json: product_name: is "insurance-car-leasing": a tariff in this folder prices ${FLEET}`
    ]
  ],
  [
    "no-tariff",
    [`error   ${FLEET}/tariffs: holds no tariff: a product is priced by its tariff versions, tariffs/<version>.json`]
  ],
  [
    "fact-not-given",
    [
      `error   ${FLEET}/tariffs/v1.json: rules[1].conditions: reads fact "vehicle_type", which the product does not give its tariff: mark the parameter vehicle_type "fact": true in product.json`,
      `error   ${FLEET}/tariffs/v1.json: rules[2].conditions: reads fact "vehicle_type", which the product does not give its tariff: mark the parameter vehicle_type "fact": true in product.json`
    ]
  ]
]

const SUSPICIOUS: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  [
    "feature-unknown-parameter",
    [
      `warning ${FLEET}/product.json: features[0].parameter_refs[7]: names no parameter of the product: "vehicle_colour"`
    ]
  ],
  [
    "option-no-rule-names",
    [
      `warning ${FLEET}/product.json: parameters[4].options[2].id: no rule of tariffs/v1.json names "motorcykel", though its rules price by vehicle_type`
    ]
  ],
  [
    "variant-no-case",
    [`warning ${FLEET}/product.json: variants[0].when: no case satisfies it (every value of vehicle_usage tried)`]
  ],
  [
    "rule-value-not-option",
    [
      `warning ${FLEET}/product.json: variants[0].when.all[0].value: "persons" is not an option of policy_holder: person, organization`,
      `warning ${FLEET}/product.json: variants[0].when: no case satisfies it (every value of policy_holder, vehicle_user, vehicle_usage tried)`
    ]
  ],
  [
    "coverage-not-described",
    [
      `warning ${FLEET}/tariffs/v1.json: rules[6].event.params.coverage: adds coverage "vejhjælp", which the coverages of product.json do not describe: its documents have no words for it`
    ]
  ],
  [
    "party-role-missing",
    [
      `warning ${FLEET}/product.json: party_roles: names no parameter for vehicle_owner: the parties in that role are matched with none`
    ]
  ],
  [
    "code-not-option",
    [
      `warning ${FLEET}/product.json: vehicle_codes.usage.codes.udlejning: is not an option of vehicle_usage: privat_person_koersel, godstransport`
    ]
  ],
  [
    "translation-missing",
    [
      `warning ${FLEET}/product.json: translations.en.parameters.vehicle_type.options.varevogn: is missing: an answer in English (Accept-Language: en) says the Danish words here`,
      `warning ${FLEET}/product.json: translations.en.variants.extended: is missing: an answer in English (Accept-Language: en) says the Danish words here`,
      `warning ${FLEET}/product.json: translations.en.coverages.kasko: is missing: an answer in English (Accept-Language: en) says the Danish words here`
    ]
  ],
  [
    "file-not-read",
    [
      `warning ${FLEET}/tariff/v2.json: is not read: a product folder holds product.json, versions/<version>.json and tariffs/<version>.json`
    ]
  ]
]

const count = (lines: ReadonlyArray<string>, kind: string) => lines.filter((line) => line.startsWith(kind)).length
const summary = (lines: ReadonlyArray<string>) => {
  const [errors, warnings] = [count(lines, "error "), count(lines, "warning ")]
  return `1 product folder checked: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`
}

describe("kasko products check", () => {
  it("finds no error and no warning in the shipped products laid out as product folders", async () => {
    expect(await check(shippedProducts())).toEqual({
      ...printed("2 product folders checked: 0 errors, 0 warnings"),
      exitCode: 0
    })
  })

  it("finds nothing in the product the broken folders are made from, given the product's folder itself", async () => {
    expect(await check(join(FIXTURES, "a-good-product", FLEET))).toEqual({
      ...printed("1 product folder checked: 0 errors, 0 warnings"),
      exitCode: 0
    })
  })

  it.each(BROKEN)("refuses a folder with %s, naming file, path and mistake (exit 2)", async (kind, lines) => {
    expect(await check(join(FIXTURES, "broken-products", kind))).toEqual({
      ...printed(...lines, summary(lines)),
      exitCode: 2
    })
  })

  it.each(SUSPICIOUS)("warns of a folder with %s and loads it (exit 0)", async (kind, lines) => {
    expect(await check(join(FIXTURES, "suspicious-products", kind))).toEqual({
      ...printed(...lines, summary(lines)),
      exitCode: 0
    })
  })

  it("reports every mistake of a folder at once, in both files, errors before warnings", async () => {
    expect(await check(join(FIXTURES, "broken-products", "several-mistakes"))).toEqual({
      ...printed(
        `error   ${FLEET}/product.json: effective_from: must be a date YYYY-MM-DD, got "2026-13-01"`,
        `error   ${FLEET}/product.json: features[0].descripton: is not a known member: did you mean "description"?`,
        `error   ${FLEET}/product.json: features[0].description: is missing`,
        `error   ${FLEET}/product.json: parameters[0].default: "4" is not one of the options: 1, 12`,
        `error   ${FLEET}/product.json: variants[0].when.all[1].fact: names no parameter of the product: "vehicle_users"`,
        `error   ${FLEET}/product.json: vehicle_codes.type.codes: has no code for "varevogn", an option of vehicle_type`,
        `error   ${FLEET}/tariffs/v1.json: product_name: is "insurance-car-leasing": a tariff in this folder prices ${FLEET}`,
        `error   ${FLEET}/tariffs/v2.json: line 6, column 34: expected a member's name in double quotes, found ','`,
        "1 product folder checked: 8 errors, 0 warnings"
      ),
      exitCode: 2
    })
  })

  it("prints for several-mistakes what packages/core/README.md shows it printing", async () => {
    const readme = readFileSync(join(ROOT, "packages", "core", "README.md"), "utf8")
    const shown =
      /\$ npx kasko products check test\/cli\/fixtures\/broken-products\/several-mistakes\n([\s\S]*?)```/.exec(readme)
    expect(shown?.[1]).toBe((await check(join(FIXTURES, "broken-products", "several-mistakes"))).stdout)
  })

  it("checks every folder of DIR, all errors before all warnings", async () => {
    const products = join(directory.path, "mixed")
    cpSync(join(FIXTURES, "suspicious-products", "party-role-missing", FLEET), join(products, "a-fleet"), {
      recursive: true
    })
    cpSync(join(FIXTURES, "broken-products", "bad-date", FLEET), join(products, "b-fleet"), { recursive: true })
    const result = await check(products)
    expect(result.exitCode).toBe(2)
    expect(result.stdout.split("\n")).toEqual([
      `error   a-fleet/product.json: product_name: is "${FLEET}", but the folder is named "a-fleet": a product's folder takes its name`,
      `error   b-fleet/product.json: effective_from: must be a date YYYY-MM-DD, got "2026-02-29"`,
      `error   b-fleet/product.json: product_name: is "${FLEET}", but the folder is named "b-fleet": a product's folder takes its name`,
      `error   b-fleet/product.json: variants[0].quoted_product_name: "private-insurance-car-fleet" is a quoted product name of a-fleet too: a quote's product name tells its product and variant apart`,
      `error   b-fleet/product.json: variants[1].quoted_product_name: "business-insurance-car-fleet" is a quoted product name of a-fleet too: a quote's product name tells its product and variant apart`,
      "warning a-fleet/product.json: party_roles: names no parameter for vehicle_owner: the parties in that role are matched with none",
      "2 product folders checked: 5 errors, 1 warning",
      ""
    ])
  })

  it("refuses a quoted product name another product gives a variant: another folder's, or a shipped product's it does not replace", async () => {
    const products = join(directory.path, "quoted-names")
    const base = join(FIXTURES, "a-good-product", FLEET)
    const withQuotedName = (folder: string, productName: string, quoted: string) => {
      cpSync(base, join(products, folder), { recursive: true })
      const file = join(products, folder, "product.json")
      const document = JSON.parse(readFileSync(file, "utf8"))
      document["product_name"] = productName
      document["variants"][0]["quoted_product_name"] = quoted
      writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`)
      const tariffFile = join(products, folder, "tariffs", "v1.json")
      writeFileSync(
        tariffFile,
        readFileSync(tariffFile, "utf8").replace(`"product_name": "${FLEET}"`, `"product_name": "${productName}"`)
      )
    }
    withQuotedName("insurance-car-fleet", "insurance-car-fleet", "private-insurance-car-leasing")
    // its Extended variant keeps the fleet product's quoted name
    withQuotedName("insurance-car-fleet-two", "insurance-car-fleet-two", "private-insurance-car-fleet-two")
    const result = await check(products)
    expect(result.stdout.split("\n").filter((line) => line.startsWith("error"))).toEqual([
      'error   insurance-car-fleet/product.json: variants[0].quoted_product_name: "private-insurance-car-leasing" is a quoted product name of insurance-car-leasing, shipped too: a quote\'s product name tells its product and variant apart',
      'error   insurance-car-fleet-two/product.json: variants[1].quoted_product_name: "business-insurance-car-fleet" is a quoted product name of insurance-car-fleet too: a quote\'s product name tells its product and variant apart'
    ])
    expect(result.exitCode).toBe(2)
  })

  it("prints the findings as JSON with --json, exit code and all", async () => {
    const result = await check(join(FIXTURES, "broken-products", "invalid-json"), "--json")
    expect(result.exitCode).toBe(2)
    expect(JSON.parse(result.stdout)).toEqual({
      folders: [FLEET],
      errors: [
        {
          severity: "error",
          file: `${FLEET}/product.json`,
          path: "",
          line: 110,
          column: 7,
          message: `expected ',' or '}' after a member, found '"'`
        }
      ],
      warnings: []
    })
  })

  it("refuses, with the usage, a DIR it cannot read or one that holds no product folder (exit 2)", async () => {
    const empty = join(directory.path, "empty")
    mkdirSync(empty)
    writeFileSync(join(empty, "product.schema.json"), "{}")
    for (const [dir, message] of [
      [join(directory.path, "missing"), `cannot read ${join(directory.path, "missing")}: ENOENT`],
      [empty, `${empty} holds no product folder: a folder with product.json, or folders of them`]
    ] as const) {
      const result = await check(dir)
      expect(result).toMatchObject({ exitCode: 2, stdout: "" })
      expect(result.stderr).toContain(`kasko products check: ${message}`)
      expect(result.stderr).toContain("kasko products check <dir>")
    }
  })
})
