/** `kasko price`, `kasko price-grid`, `kasko tariff diff`, `kasko tariff check` from the command line. */
import { Resvg } from "@resvg/resvg-js"
import { runCli } from "@kasko/server"
import { parse } from "csv-parse/sync"
import { spawnSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const LEASING_V1 = join(ROOT, "packages", "core", "tariffs", "insurance-car-leasing", "v1.json")
const PROPOSAL = join(ROOT, "examples", "actuary-workbench", "tariffs", "insurance-car-leasing-v2-proposal.json")
const GOLDEN = join(ROOT, "examples", "actuary-workbench", "golden", "reference-tariff-v1.csv")
// 56 KB of another document's JSON: refused in one line, not printed back
const NOT_A_TARIFF = join(ROOT, "examples", "actuary-workbench", "impact", "expected-summary.json")
const MAIN = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const directory = temporaryDirectory("kasko-workbench-")
afterAll(() => directory.remove())

const STANDARD_CAR = [
  "policy_holder=person",
  "vehicle_user=person",
  "vehicle_owner=organization",
  "vehicle_type=personbil",
  "vehicle_usage=privat_person_koersel"
].flatMap((pair) => ["--param", pair])

describe("kasko price", () => {
  it("prints the rating worksheet of one case as a table", async () => {
    const result = await runCli([
      "price",
      "--product",
      "insurance-car-leasing",
      "--feature",
      "standard",
      ...STANDARD_CAR,
      "--param",
      "vehicle_price=200000",
      "--date",
      "2026-03-02"
    ])
    expect(result.exitCode).toBe(0)
    const lines = result.stdout.split("\n")
    expect(lines[0]).toBe("insurance-car-leasing · tariff v1 · priced 2026-03-02 · standard variant · standard feature")
    expect(result.stdout).toMatch(/kasko\s+2\.00 % of 200000 kr\s+4 000\.00\s+—\s+4 000\.00\s+deductible 5 000\.00/)
    expect(result.stdout).toMatch(/skadesforsikringsafgift\s+1\.10 % of 4850\.00 kr .*53\.35/)
    expect(result.stdout).toContain("annual total  7 599.55 kr")
    expect(result.stdout).toContain("= 7600 kr")
  })

  it("names the youngest user's age in the worksheet's facts as the API names the parameter", async () => {
    const result = await runCli([
      "price",
      "--product",
      "insurance-car-leasing",
      "--feature",
      "standard",
      ...STANDARD_CAR,
      "--param",
      "vehicle_price=200000",
      "--param",
      "youngest_user_age=23",
      "--date",
      "2026-03-02"
    ])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("youngest_user_age=23")
    expect(result.stdout).not.toContain("youngest_driver_age")
  })

  it.each([
    [["price", "--feature", "standard"], 2, "Missing required argument: product"],
    [
      ["price", "--product", "insurance-car-leasing", "--feature", "standard", "--date", "2026-02-30"],
      2,
      "--date takes YYYY-MM-DD"
    ],
    [
      ["price", "--product", "insurance-car-leasing", "--feature", "standard", "--param", "vehicle_price=5"],
      1,
      "vehicle_price must be between 1000"
    ],
    [
      [
        "price",
        "--product",
        "insurance-car-leasing",
        "--feature",
        "standard",
        ...STANDARD_CAR,
        "--param",
        "vehicle_price=5000",
        "--date",
        "2020-01-01"
      ],
      1,
      "product.product_name is not sold before 2025-01-01, when its first version takes effect"
    ],
    [
      ["price", "--product", "insurance-car-leasing", "--feature", "standard", "--tariff", "/no/such/tariff.json"],
      2,
      "cannot read /no/such/tariff.json"
    ],
    [
      ["tariff", "diff", LEASING_V1, NOT_A_TARIFF, "--cases", GOLDEN],
      1,
      `kasko tariff diff: ${NOT_A_TARIFF} is not a tariff kasko can load: Unexpected key with value "2027-01-01" at pricing_date (kasko tariff check lists every problem)\n`
    ]
  ])("kasko %j exits %i: %s", async (args, exitCode, message) => {
    const result = await runCli(args)
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toContain(message)
  })
})

/** WCAG relative luminance of an `rgb(r, g, b)`, `white` or `black` fill. */
const luminance = (fill: string): number => {
  const channels = fill === "white" ? [255, 255, 255] : fill === "black" ? [0, 0, 0] : fill.match(/\d+/g)!.map(Number)
  const [r, g, b] = channels.map((value) => {
    const unit = value / 255
    return unit <= 0.03928 ? unit / 12.92 : ((unit + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** The contrast of each cell's label with the cell beneath it, matched by their aria-labels. */
const cellLabelContrasts = (svg: string): Array<number> => {
  const fills = (mark: string) =>
    new Map(
      [
        ...svg.matchAll(
          new RegExp(
            `aria-label="([^"]*?); [^;"]*: \\d+"[^>]*aria-roledescription="${mark} mark"[^>]*fill="([^"]+)"`,
            "g"
          )
        )
      ].map((match) => [match[1]!, match[2]!])
    )
  const cells = fills("rect")
  return [...fills("text")].map(([cell, text]) => {
    const [lighter, darker] = [luminance(text), luminance(cells.get(cell)!)].sort((a, b) => b - a) as [number, number]
    return (lighter + 0.05) / (darker + 0.05)
  })
}

describe("kasko price-grid", () => {
  it("writes the grid as CSV and as an SVG heat map with one cell per grid point", async () => {
    const out = join(directory.path, "grid", "leasing")
    const result = await runCli([
      "price-grid",
      "--product",
      "insurance-car-leasing",
      "--feature",
      "standard",
      ...STANDARD_CAR,
      "--x",
      "vehicle_price=100000:500000:100000",
      "--y",
      "youngest_user_age=20,21,28",
      "--date",
      "2026-03-02",
      "--out",
      out
    ])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe(`priced 15 cells: wrote ${out}.csv and ${out}.svg\n`)

    const rows = parse(readFileSync(`${out}.csv`, "utf8"), { columns: true }) as Array<Record<string, string>>
    expect(rows).toHaveLength(15)
    // 200 000 kr, age 28 is the golden table's first case: 7 600 a year, 665 a month
    expect(rows).toContainEqual({ vehicle_price: "200000", youngest_user_age: "28", annually: "7600", monthly: "665" })
    // younger is never cheaper, dearer is never cheaper
    const annually = (price: string, age: string) =>
      Number(rows.find((row) => row["vehicle_price"] === price && row["youngest_user_age"] === age)!["annually"])
    expect(annually("300000", "20")).toBeGreaterThan(annually("300000", "21"))
    expect(annually("500000", "21")).toBeGreaterThan(annually("400000", "21"))

    const svg = readFileSync(`${out}.svg`, "utf8")
    expect(svg.startsWith("<svg")).toBe(true)
    expect(svg.match(/aria-roledescription="rect mark"/g)).toHaveLength(15)
    // axes in words, and what the chart holds fixed in its subtitle
    expect(svg).toContain(">Vehicle price (kr)</text>")
    expect(svg).toContain(">Youngest driver's age</text>")
    expect(svg).not.toMatch(/>(vehicle_price|youngest_user_age)<\/text>/)
    expect(svg).toContain(
      "Priced 2026-03-02 with Policy holder: person · Vehicle user: person · Vehicle owner: organization · Vehicle type: personbil · Vehicle usage: privat_person_koersel"
    )
    // every cell's label reads on its colour (WCAG AA for small text: contrast at least 4.5)
    const contrasts = cellLabelContrasts(svg)
    expect(contrasts).toHaveLength(15)
    expect(Math.min(...contrasts)).toBeGreaterThanOrEqual(4.5)
    const image = new Resvg(svg).render()
    expect(image.width).toBeGreaterThan(200)
    expect(image.height).toBeGreaterThan(100)
    expect(image.asPng().subarray(1, 4).toString()).toBe("PNG")
  })

  it("writes nowhere without --out: the command line names where files go", async () => {
    const cwd = join(directory.path, "grid-here")
    mkdirSync(cwd)
    const run = spawnSync(
      process.execPath,
      [
        MAIN,
        "price-grid",
        "--product",
        "insurance-car-leasing",
        "--feature",
        "standard",
        ...STANDARD_CAR,
        "--x",
        "vehicle_price=100000:200000:100000",
        "--y",
        "youngest_user_age=30",
        "--date",
        "2026-03-02"
      ],
      { cwd, encoding: "utf8" }
    )
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("Missing required argument: out")
    expect(readdirSync(cwd)).toEqual([])
    expect((await runCli(["price-grid", "--help"])).stdout).toContain("where to write: <out>.csv and <out>.svg")
  })

  it("exits 2 for a malformed axis", async () => {
    const result = await runCli([
      "price-grid",
      "--product",
      "insurance-car-leasing",
      "--feature",
      "standard",
      "--x",
      "vehicle_price",
      "--y",
      "youngest_user_age=20",
      "--out",
      join(directory.path, "x")
    ])
    expect(result).toMatchObject({ exitCode: 2, stderr: expect.stringContaining("an axis is") })
  })
})

describe("kasko tariff diff", () => {
  it("prints each changed premium of the cases, in kroner and per cent", async () => {
    const result = await runCli(["tariff", "diff", LEASING_V1, PROPOSAL, "--cases", GOLDEN])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(
      /leasing godstransport personbil\s+premium ansvar\s+3000\.00\s+3072\.00\s+\+72\.00\s+\+2\.40 %/
    )
    expect(result.stdout).toMatch(/\d+ of \d+ cases change/)
    const json = JSON.parse(
      (await runCli(["tariff", "diff", LEASING_V1, PROPOSAL, "--cases", GOLDEN, "--json"])).stdout
    )
    expect(json.length).toBeGreaterThan(0)
  })

  it.each([
    [["tariff", "diff", LEASING_V1, "--cases", GOLDEN], "Not enough non-option arguments: got 1, need at least 2"],
    [["tariff", "diff", LEASING_V1, PROPOSAL], "Missing required argument: cases"]
  ])("exits 2 for %j", async (args, message) => {
    expect(await runCli(args)).toMatchObject({ exitCode: 2, stderr: expect.stringContaining(message) })
  })
})

describe("kasko tariff check", () => {
  it("passes the shipped tariffs", async () => {
    for (const product of ["insurance-car-leasing", "insurance-car-standalone"]) {
      const result = await runCli(["tariff", "check", join(ROOT, "packages", "core", "tariffs", product, "v1.json")])
      expect(result).toMatchObject({ exitCode: 0, stdout: expect.stringContaining("0 errors, 0 warnings") })
    }
  })

  it("reports unreachable rules, coverages with no premium and parameters the product does not define, and exits 1", async () => {
    const standalone = JSON.parse(
      readFileSync(join(ROOT, "packages", "core", "tariffs", "insurance-car-standalone", "v1.json"), "utf8")
    )
    standalone.rules.push(
      {
        name: "standard goods transport",
        conditions: {
          all: [
            { fact: "variant", operator: "equal", value: "standard" },
            { fact: "vehicle_usage", operator: "equal", value: "godstransport" }
          ]
        },
        event: { type: "set_limit", params: { coverage: "kasko", amount: 1000 } }
      },
      {
        name: "free glass",
        conditions: { all: [{ fact: "feature", operator: "equal", value: "premium" }] },
        event: {
          type: "add_coverage",
          params: { coverage: "glas", id: "CS-GLAS", premium: { type: "fixed", amount: 0 } }
        }
      },
      {
        name: "loading on nothing",
        conditions: { all: [{ fact: "vehicle_type", operator: "equal", value: "varevogn" }] },
        event: { type: "apply_loading", params: { loading: "x", coverages: ["lastbil"], percent: 5 } }
      },
      {
        name: "young standalone drivers",
        conditions: { all: [{ fact: "youngest_user_age", operator: "lessThan", value: 25 }] },
        event: { type: "apply_loading", params: { loading: "young", coverages: ["kasko"], percent: 20 } }
      }
    )
    const file = join(directory.path, "broken.json")
    writeFileSync(file, JSON.stringify(standalone))
    const result = await runCli(["tariff", "check", file])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain('rule "standard goods transport" is unreachable')
    expect(result.stdout).toContain('rule "free glass" adds coverage glas with no premium')
    expect(result.stdout).toContain('rule "loading on nothing" names coverage lastbil, which no rule adds')
    expect(result.stdout).toContain('rule "young standalone drivers" reads youngest_user_age')
    expect(result.stdout).toContain("4 errors, 0 warnings")
  })

  it("reports a document that does not decode, naming what is wrong", async () => {
    const file = join(directory.path, "undecodable.json")
    writeFileSync(
      file,
      JSON.stringify({
        product_name: "insurance-car-leasing",
        version: "v9",
        effective_from: "2026-01-01",
        currency: "DKK",
        monthly_surcharge_percent: 5,
        charges: [],
        rules: [
          {
            name: "r",
            conditions: { all: [{ fact: "colour", operator: "equal", value: "red" }] },
            event: { type: "add_coverage", params: {} }
          }
        ]
      })
    )
    const result = await runCli(["tariff", "check", file])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain("does not decode")
    expect(result.stdout).toContain("colour")
  })
})

describe("the actuary's commands on a product added as files (--products)", () => {
  const EXAMPLE_PRODUCTS = join(ROOT, "examples", "products")
  const VAN_V1 = join(EXAMPLE_PRODUCTS, "insurance-van-business", "tariffs", "v1.json")
  const VAN_GOLDEN = join(EXAMPLE_PRODUCTS, "insurance-van-business-v1.golden.csv")
  const VAN = [
    "policy_holder=organization",
    "vehicle_type=varevogn",
    "vehicle_user=person",
    "vehicle_owner=organization",
    "vehicle_usage=erhverv_egne_varer",
    "vehicle_price=200000",
    "annual_mileage_km=25000",
    "overnight_parking=firmaareal"
  ].flatMap((pair) => ["--param", pair])

  it("kasko price prints its worksheet with its own facts, as its golden table's first row prices it", async () => {
    const args = ["price", "--product", "insurance-van-business", "--feature", "basis", "--date", "2026-06-01"]
    const result = await runCli([...args, ...VAN, "--products", EXAMPLE_PRODUCTS])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("insurance-van-business · tariff v1 · priced 2026-06-01 · standard variant")
    expect(result.stdout).toContain("annual_mileage_km=25000 overnight_parking=firmaareal")
    expect(result.stdout).toMatch(
      /kasko\s+2\.30 % of 200000 kr\s+4 600\.00\s+-5 % overnight_parking firmaareal\s+4 370\.00/
    )
    // without the products it is refused by name
    expect((await runCli([...args, ...VAN])).stderr).toContain("product.product_name")
  })

  it("kasko tariff check lints its tariff, which without the products does not decode", async () => {
    expect(await runCli(["tariff", "check", VAN_V1, "--products", EXAMPLE_PRODUCTS])).toEqual({
      stdout: `${VAN_V1}: 0 errors, 0 warnings\n`,
      stderr: "",
      exitCode: 0
    })
    const alone = await runCli(["tariff", "check", VAN_V1])
    expect(alone.exitCode).toBe(1)
    expect(alone.stdout).toContain('got "insurance-van-business"')
  })

  it("kasko tariff diff re-prices its golden table under a changed tariff", async () => {
    const tariff = JSON.parse(readFileSync(VAN_V1, "utf8"))
    const proposal = join(directory.path, "van-v2.json")
    writeFileSync(
      proposal,
      JSON.stringify({
        ...tariff,
        version: "v2",
        rules: tariff.rules.map((rule: { name: string; event: { params: Record<string, unknown> } }) =>
          rule.name === "vejhjælp"
            ? {
                ...rule,
                event: { ...rule.event, params: { ...rule.event.params, premium: { type: "fixed", amount: 500 } } }
              }
            : rule
        )
      })
    )
    const result = await runCli([
      "tariff",
      "diff",
      VAN_V1,
      proposal,
      "--cases",
      VAN_GOLDEN,
      "--products",
      EXAMPLE_PRODUCTS,
      "--json"
    ])
    expect(result.exitCode).toBe(0)
    const changes = JSON.parse(result.stdout) as Array<{ item: string; old_kroner: number; new_kroner: number }>
    // vejhjælp 450 → 500 kr. in every case of the table
    const vejhjaelp = changes.filter((change) => change.item === "premium vejhjælp")
    expect(vejhjaelp).toHaveLength(parse(readFileSync(VAN_GOLDEN, "utf8"), { columns: true }).length)
    expect(vejhjaelp.every((change) => change.old_kroner === 450 && change.new_kroner === 500)).toBe(true)
  })

  it("refuses a products directory with an error, exit 2, naming the error", async () => {
    const broken = join(ROOT, "test", "cli", "fixtures", "broken-products", "bad-date")
    const result = await runCli(["tariff", "check", VAN_V1, "--products", broken])
    expect(result).toMatchObject({ exitCode: 2, stdout: "" })
    expect(result.stderr).toContain('effective_from: must be a date YYYY-MM-DD, got "2026-02-29"')
  })
})
