/**
 * The workbench over a products directory, as `kasko workbench --products examples/products` starts it: every
 * view follows the catalogue with the example's van product in it — the price form generated from the van's own
 * parameters, the grid's axes over them, its golden table and linter in Check, its versions in Compare, its variant
 * rule beside the case — with the numbers the actuary's commands give with `--products`.
 */
import { ProductCatalogue, TariffDocuments } from "@kasko/core/actuarial"
import { runCli } from "@kasko/server"
import { parseGoldenTable, priceCase, worksheetTable } from "@kasko/workbench"
import { parse } from "csv-parse/sync"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { EXAMPLE_PRODUCTS, fillCase, launchChromium, openPage, skipBrowser, startReadmeWorkbench } from "./support.js"
import type { RunningWorkbench } from "@kasko/workbench-web"

const VAN = "insurance-van-business"
const VAN_FOLDER = join(EXAMPLE_PRODUCTS, VAN)
const VAN_V1_FILE = join(VAN_FOLDER, "tariffs", "v1.json")
const CATALOGUE = ProductCatalogue.withProducts(
  ProductCatalogue.decodeCatalogue([JSON.parse(readFileSync(join(VAN_FOLDER, "product.json"), "utf8"))]).products
)
const VAN_TARIFFS = TariffDocuments.decodeTariffs([JSON.parse(readFileSync(VAN_V1_FILE, "utf8"))], CATALOGUE)
const VAN_GOLDEN = parseGoldenTable(
  readFileSync(join(EXAMPLE_PRODUCTS, "insurance-van-business-v1.golden.csv"), "utf8"),
  CATALOGUE
)

/** The price the page shows for its case. */
const shownPrice = async (page: Page) => {
  const main = page.locator("main")
  return {
    annually: Number(await main.locator('[data-price="annually"]').textContent()),
    monthly: Number(await main.locator('[data-price="monthly"]').textContent()),
    worksheet: await main.locator("pre.worksheet-text").textContent()
  }
}

describe.skipIf(skipBrowser)("the workbench with a products directory", () => {
  let browser: Browser
  let workbench: RunningWorkbench
  const output = temporaryDirectory("kasko-added-products-")
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startReadmeWorkbench(["--products", "examples/products"])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
    output.remove()
  })

  it("prices every van golden case in a form of the van's own parameters, as the engine does", async () => {
    const { page, problems, foreignRequests, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const main = page.locator("main")
    await main.locator('[data-price="annually"]').waitFor()
    expect(await main.locator('select[name="product_name"] option').allTextContents()).toEqual(
      CATALOGUE.products.map((product) => `${product.title} (${product.product_name})`)
    )
    expect(CATALOGUE.productNames).toEqual([...ProductCatalogue.PRODUCT_NAMES, VAN])
    await main.locator('select[name="product_name"]').selectOption(VAN)
    // the form is the van's: its parameters in its document's order, its titles, options and defaults
    const fields = await main
      .locator("fieldset.parameters [name]")
      .evaluateAll((controls) => controls.map((control) => control.getAttribute("name")))
    expect(fields).toEqual(CATALOGUE.definition(VAN)!.parameters.map((parameter) => parameter.name))
    expect(await main.locator("fieldset.parameters label", { hasText: "annual_mileage_km" }).textContent()).toBe(
      "Kørsel pr. år (km) annual_mileage_km"
    )
    expect(await main.locator('select[name="overnight_parking"] option').allTextContents()).toEqual([
      "— not sent —",
      "Aflåst garage (garage)",
      "Aflåst, indhegnet firmaareal (firmaareal)",
      "Gade eller åben parkeringsplads (gade)"
    ])
    expect(await main.locator('select[name="tools_cover"]').inputValue()).toBe("ingen")
    expect(await main.locator('select[name="feature"] option').allTextContents()).toEqual([
      "Basis (basis)",
      "Plus (plus)"
    ])
    // priced once, the worksheet's text form is opened; opened, it stays so
    await fillCase(page, VAN_GOLDEN[0]!)
    await main.locator("details.as-text summary").click()
    for (const row of VAN_GOLDEN) {
      await fillCase(page, row)
      const worksheet = await priceCase(row, VAN_TARIFFS, "compiled", CATALOGUE)
      // the golden table's figures, and the engine's worksheet as kasko price --products prints it
      expect(await shownPrice(page), row.name).toEqual({
        annually: row.expected!.annually,
        monthly: row.expected!.monthly,
        worksheet: worksheetTable(worksheet)
      })
    }
    expect(problems).toEqual([])
    expect(foreignRequests).toEqual([])
    await close()
  }, 180_000)

  it("explains a van case's variant by the van's own rule, with its quoted product names", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const main = page.locator("main")
    await main.locator('select[name="product_name"]').selectOption(VAN)
    const transport = VAN_GOLDEN.find((row) => Number(row.parameters["annual_mileage_km"]) > 40_000)!
    await fillCase(page, transport)
    await main.locator('.variant-verdict[data-variant="extended"]').waitFor()
    expect(await main.locator(".variant-rule").textContent()).toContain("annual_mileage_km is at most 40000")
    expect(await main.locator('.variant-answer[data-variant="standard"] code').textContent()).toBe(
      "business-insurance-van-craft"
    )
    expect(await main.locator('.variant-answer[data-variant="extended"] code').textContent()).toBe(
      "business-insurance-van-transport"
    )
    await close()
  }, 60_000)

  it("draws a grid over the van's own parameters with the numbers kasko price-grid --products writes", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#grid`)
    const main = page.locator("main")
    await main.locator(".heat-map").waitFor()
    await main.locator('select[name="product_name"]').selectOption(VAN)
    expect(await main.locator('select[name="x-parameter"] option').allTextContents()).toEqual(
      CATALOGUE.definition(VAN)!.parameters.map((parameter) => parameter.name)
    )
    await main.locator('select[name="x-parameter"]').selectOption("annual_mileage_km")
    await main.locator('select[name="y-parameter"]').selectOption("overnight_parking")
    // the rest of the case in the form, which leaves out the axes' parameters
    const row = VAN_GOLDEN[0]!
    await fillCase(page, row)
    // each axis starts as its parameter suggests: round steps across the mileage's range, every kind of parking
    expect(await main.locator('input[name="x-values"]').inputValue()).toBe("10000:150000:10000")
    expect(await main.locator('input[name="y-values"]').inputValue()).toBe("garage,firmaareal,gade")
    const out = output.newFile("van-grid")
    const cli = await runCli([
      "price-grid",
      ...["--product", VAN, "--feature", row.feature, "--date", row.pricing_date],
      ...Object.entries(row.parameters)
        .filter(([name]) => name !== "annual_mileage_km" && name !== "overnight_parking")
        .flatMap(([name, value]) => ["--param", `${name}=${value}`]),
      ...["--x", "annual_mileage_km=10000:150000:10000", "--y", "overnight_parking=garage,firmaareal,gade"],
      ...["--products", EXAMPLE_PRODUCTS, "--out", out]
    ])
    expect(cli.stderr).toBe("")
    const cliCells = parse(readFileSync(`${out}.csv`, "utf8"), { columns: true }) as Array<Record<string, string>>
    await main.locator('svg text.cell-label[data-x="150000"][data-y="gade"]').waitFor()
    const labels = await main
      .locator("svg text.cell-label")
      .evaluateAll((texts) =>
        texts.map((text) => [text.getAttribute("data-x"), text.getAttribute("data-y"), text.textContent])
      )
    expect(labels).toEqual(
      cliCells.map((cell) => [cell["annual_mileage_km"], cell["overnight_parking"], cell["annually"]])
    )
    expect(problems).toEqual([])
    await close()
  }, 90_000)

  it("checks the van's tariff with its golden table and the linter, and compares its versions", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#check`)
    const main = page.locator("main")
    const key = `${VAN}/tariffs/v1.json`
    await main.locator('select[name="check-version"]').selectOption(key)
    await main.locator('.check-results[aria-busy="false"] [data-summary="golden"]').waitFor()
    expect(await main.locator('[data-summary="lint"]').textContent()).toBe(`✓ ${key}: 0 errors, 0 warnings`)
    expect(await main.locator('[data-summary="golden"]').textContent()).toBe(
      `✓ ${VAN_GOLDEN.length} of ${VAN_GOLDEN.length} golden rows pass`
    )
    await page.goto(`${workbench.url}/#compare`)
    await main.locator('select[name="compare-product"]').selectOption(VAN)
    expect(await main.locator('select[name="old-version"] option').allTextContents()).toEqual([
      "insurance-van-business v1 (from 2026-01-01)"
    ])
    await main.locator('.changes[aria-busy="false"]').waitFor()
    expect(await main.locator('[data-summary="diff"]').textContent()).toBe(`0 of ${VAN_GOLDEN.length} cases change`)
    expect(problems).toEqual([])
    await close()
  }, 60_000)
})
