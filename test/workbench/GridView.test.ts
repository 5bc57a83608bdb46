/**
 * The price grid in Chromium: the heat map and its CSV carry the numbers
 * `kasko price-grid` writes, the other parameters are editable, hovering a
 * cell shows its worksheet, and the chart exports as SVG and PNG.
 */
import { runCli } from "@kasko/server"
import { priceCase, worksheetTable } from "@kasko/workbench"
import { parse } from "csv-parse/sync"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  downloadedText,
  fillCase,
  launchChromium,
  openPage,
  screenshot,
  SHIPPED,
  skipBrowser,
  startTestWorkbench,
  TODAY,
  type TestWorkbench
} from "./support.js"

const CASE = {
  product_name: "insurance-car-leasing",
  feature: "standard",
  pricing_date: TODAY,
  parameters: {
    payments_per_year: "1",
    policy_holder: "person",
    vehicle_type: "personbil",
    vehicle_user: "person",
    vehicle_owner: "organization",
    vehicle_usage: "privat_person_koersel",
    vehicle_price: "250000"
  }
}

const GRIDS = [
  { x: ["vehicle_price", "100000:1000000:100000"], y: ["youngest_user_age", "18,20,21,24,25,27,28,35"] },
  {
    x: ["vehicle_type", "personbil,varevogn"],
    y: ["vehicle_usage", "privat_person_koersel,godstransport,godstransport_erhverv"]
  }
] as const

const setAxes = async (page: Page, grid: (typeof GRIDS)[number]) => {
  const main = page.locator("main")
  await main.locator('select[name="x-parameter"]').selectOption(grid.x[0])
  await main.locator('select[name="y-parameter"]').selectOption(grid.y[0])
  await main.locator('input[name="x-values"]').fill(grid.x[1])
  await main.locator('input[name="y-values"]').fill(grid.y[1])
}

describe.skipIf(skipBrowser)("the price grid view", () => {
  let browser: Browser
  let workbench: TestWorkbench
  const output = temporaryDirectory("kasko-grid-cli-")
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
    output.remove()
  })

  it.each(GRIDS)(
    "draws and exports the numbers kasko price-grid writes: $x.0 × $y.0",
    async (grid) => {
      const { page, problems, foreignRequests, close } = await openPage(browser, workbench)
      await page.goto(`${workbench.url}/#grid`)
      await page.locator("main .heat-map").waitFor()
      await setAxes(page, grid)
      await fillCase(page, CASE)
      const out = output.newFile("grid")
      const cli = await runCli([
        "price-grid",
        "--product",
        CASE.product_name,
        "--feature",
        CASE.feature,
        "--date",
        TODAY,
        ...Object.entries(CASE.parameters)
          .filter(([name]) => name !== grid.x[0] && name !== grid.y[0])
          .flatMap(([name, value]) => ["--param", `${name}=${value}`]),
        "--x",
        `${grid.x[0]}=${grid.x[1]}`,
        "--y",
        `${grid.y[0]}=${grid.y[1]}`,
        "--tariff",
        join(workbench.directory, "insurance-car-leasing", "v1.json"),
        "--out",
        out
      ])
      expect(cli.stderr).toBe("")
      const cliCsv = readFileSync(`${out}.csv`, "utf8")
      const cliCells = parse(cliCsv, { columns: true }) as Array<Record<string, string>>

      const labels = await page
        .locator("main svg text.cell-label")
        .evaluateAll((texts) =>
          texts.map((text) => [text.getAttribute("data-x"), text.getAttribute("data-y"), text.textContent])
        )
      expect(labels).toEqual(cliCells.map((cell) => [cell[grid.x[0]], cell[grid.y[0]], cell["annually"]]))

      await page.locator("main .table-slot summary").click()
      const exported = await downloadedText(page, () =>
        page.locator("main .table-slot button", { hasText: "CSV" }).click()
      )
      expect(exported.name).toBe("price-grid.csv")
      expect(exported.text).toBe(cliCsv)
      expect(problems).toEqual([])
      expect(foreignRequests).toEqual([])
      await close()
    },
    90_000
  )

  it("shows the other parameters, editable, and the worksheet of the cell under the pointer", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#grid`)
    const main = page.locator("main")
    await main.locator(".heat-map").waitFor()
    await setAxes(page, GRIDS[0])
    // the axes' parameters are the map's; every other one is in the form
    expect(await main.locator('[name="vehicle_price"], [name="youngest_user_age"]').count()).toBe(0)
    await main.locator('select[name="vehicle_usage"]').selectOption("godstransport")
    // show the worksheets' text form (it stays shown), then point at the cell
    await main.locator('rect[data-x="100000"][data-y="18"]').hover()
    await main.locator(".cell-detail details.as-text summary").click()
    await main.locator('rect[data-x="300000"][data-y="21"]').hover()
    expect(await main.locator(".cell-detail h3").textContent()).toBe("Cell vehicle_price=300000, youngest_user_age=21")
    const cell = {
      ...CASE,
      name: "cell",
      parameters: {
        ...CASE.parameters,
        vehicle_usage: "godstransport",
        vehicle_price: "300000",
        youngest_user_age: "21"
      }
    }
    expect(await main.locator(".cell-detail pre.worksheet-text").textContent()).toBe(
      worksheetTable(await priceCase(cell, SHIPPED))
    )
    await close()
  }, 60_000)

  it("exports the chart as SVG and as PNG, and is pictured in docs/workbench/grid.png", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#grid`)
    const main = page.locator("main")
    await main.locator(".heat-map").waitFor()
    await setAxes(page, GRIDS[0])
    const svg = await downloadedText(page, () => main.locator("button", { hasText: "Export chart as SVG" }).click())
    expect(svg.name).toBe("price-grid.svg")
    expect(svg.text).toMatch(/^<\?xml[^>]*>\n<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svg.text).toContain("annual premium by vehicle_price and youngest_user_age")
    expect(svg.text).not.toContain('class="selection"')
    const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg.text)![1])
    const png = await downloadedText(page, () => main.locator("button", { hasText: "Export chart as PNG" }).click())
    expect(png.name).toBe("price-grid.png")
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(png.bytes.readUInt32BE(16)).toBe(width * 2)
    await main.locator('rect[data-x="500000"][data-y="24"]').hover()
    await screenshot(page, "grid")
    await close()
  }, 60_000)
})
