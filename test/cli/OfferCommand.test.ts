/** `kasko offer`: an anonymous offer from the command line, in words or as the API answers it. */
import { runCli } from "@kasko/server"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const EXAMPLE_PRODUCTS = join(ROOT, "examples", "products")
const BROKEN_PRODUCTS = join(ROOT, "test", "cli", "fixtures", "broken-products", "bad-date")

describe("kasko offer", () => {
  it("prices the sample leasing car when given no parameters, and says so", async () => {
    const result = await runCli(["offer", "--json"])
    expect(result.exitCode).toBe(0)
    const offer = JSON.parse(result.stdout)
    expect(offer.product.product_name).toBe("insurance-car-leasing")
    expect(offer.price.annually).toBeGreaterThan(0)
    expect(offer.price.monthly * 12).toBeGreaterThanOrEqual(offer.price.annually)
    expect(result.stderr).toContain("sample")
  })

  it("prices the parameters it is given", async () => {
    const result = await runCli([
      "offer",
      "--product",
      "insurance-car-standalone",
      "--feature",
      "premium",
      ...[
        "policy_holder=person",
        "vehicle_user=person",
        "vehicle_owner=organization",
        "vehicle_type=personbil"
      ].flatMap((pair) => ["--param", pair]),
      "--param",
      "vehicle_usage=privat_person_koersel",
      "--param",
      "vehicle_price=500000",
      "--json"
    ])
    expect(result.exitCode).toBe(0)
    // standalone Standard premium personbil 500 000: kasko 8 400, ansvar 1 800, 150 + 350 + 450 + 250 + 400;
    // taxable 8 400 + 1 600 = 10 000 → 110; statsafgift 772.20; total 10 000 + 1 800 + 772.20 + 110 + 124 = 12 806.20 → 12 806
    expect(JSON.parse(result.stdout).price.annually).toBe(12806)
  })

  it("says the price, the coverages and the product information in words", async () => {
    const result = await runCli(["offer"])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toBe(
      "insurance-car-leasing, standard feature: 13.002 kr a year, paid as 1.138 kr a month\n" +
        "coverages: kasko (deductible 5.000 kr), ansvar, påkørsel_af_dyr, afleveringsforsikring, vejhjælp\n" +
        "product information: http://localhost:8080/products/insurance-car-leasing/variants/standard/ipid\n"
    )
  })

  it("prints the rating worksheet with --explain", async () => {
    const result = await runCli(["offer", "--explain"])
    expect(result.exitCode).toBe(0)
    const worksheet = JSON.parse(result.stdout)
    expect(worksheet.tariff_version).toBe("v1")
    expect(worksheet.rounding.monthly).toContain("rounded up")
  })

  it("exits 1 with the violations for invalid parameters", async () => {
    const result = await runCli(["offer", "--param", "vehicle_price=abc"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("product.parameters.vehicle_price must be a string of digits\n")
    expect(result.stderr).toContain("product.parameters.policy_holder is required\n")
    // sentences for a person, not the schema library's tagged objects
    expect(result.stderr).not.toMatch(/_tag|[{}]/)
  })

  it("exits 2 with its usage for a malformed option or an unknown command", async () => {
    const malformed = await runCli(["offer", "--param", "no-equals-sign"])
    expect(malformed).toMatchObject({ exitCode: 2, stdout: "" })
    expect(malformed.stderr).toMatch(
      /^kasko offer: --param takes <name>=<value>, got "no-equals-sign"\n\nkasko offer\n/
    )
    expect(await runCli(["offer", "--colour", "red"])).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining("Unknown argument: colour")
    })
    expect(await runCli(["fly"])).toMatchObject({
      exitCode: 2,
      stderr: expect.stringMatching(/^kasko: Unknown argument: fly\n\nkasko <command> \[options\]/)
    })
  })

  it("prices a product added as files with --products, and refuses a directory with an error, exit 2", async () => {
    const van = [
      "policy_holder=organization",
      "vehicle_type=varevogn",
      "vehicle_user=person",
      "vehicle_owner=organization",
      "vehicle_usage=privat_og_erhverv",
      "vehicle_price=320000",
      "annual_mileage_km=60000",
      "overnight_parking=gade"
    ].flatMap((pair) => ["--param", pair])
    const args = ["offer", "--product", "insurance-van-business", "--feature", "plus", ...van]
    const priced = await runCli([...args, "--products", EXAMPLE_PRODUCTS, "--json"])
    expect(priced.exitCode).toBe(0)
    const offer = JSON.parse(priced.stdout)
    expect(offer.product.product_name).toBe("insurance-van-business")
    // more than 40 000 km a year: the van product's rule makes it its Extended variant
    expect(offer.policies[0].ipid_href).toContain("/products/insurance-van-business/variants/extended/ipid")
    expect(await runCli(args)).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining("product.product_name")
    })
    const refused = await runCli([...args, "--products", BROKEN_PRODUCTS])
    expect(refused).toMatchObject({ exitCode: 2, stdout: "" })
    expect(refused.stderr).toContain("holds products kasko cannot load")
  })
})
