/**
 * The price view in Chromium: the form generated from the product
 * definition prices every golden case to the engine's numbers and worksheet,
 * shows the Schema's messages at their fields, and prices with the version
 * chosen; beside the case, its variant by the core's rule and what the
 * variant changes in its answer.
 */
import { ProductCatalogue, Variant } from "@kasko/core/actuarial"
import { priceCase, worksheetTable } from "@kasko/workbench"
import { parse } from "csv-parse/sync"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  downloadedText,
  fillCase,
  GOLDEN_ROWS,
  launchChromium,
  openPage,
  PROPOSAL,
  screenshot,
  SHIPPED,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

/** What the page shows for the priced case. */
const shownPrice = async (page: Page) => {
  const main = page.locator("main")
  const coverages = await main
    .locator("[data-premium-of]")
    .evaluateAll((cells) => cells.map((cell) => [cell.getAttribute("data-premium-of"), cell.textContent]))
  return {
    annually: Number(await main.locator('[data-price="annually"]').textContent()),
    monthly: Number(await main.locator('[data-price="monthly"]').textContent()),
    // the page groups thousands with a space; the golden table writes plain kroner.øre
    premiums: Object.fromEntries(coverages.map(([coverage, kroner]) => [coverage, kroner!.replace(/\s/g, "")])),
    worksheet: await main.locator("pre.worksheet-text").textContent()
  }
}

describe.skipIf(skipBrowser)("the price view", () => {
  let browser: Browser
  let workbench: TestWorkbench
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench({ "insurance-car-leasing/v2-proposal.json": PROPOSAL })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
  })

  it("prices every golden case as the engine does: the same numbers and the same worksheet", async () => {
    const { page, problems, foreignRequests, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    await page.locator('main[data-view="price"] [data-price="annually"]').waitFor()
    // the worksheet as text is written once shown; shown once, it stays shown
    await page.locator("main details.as-text summary").click()
    for (const row of GOLDEN_ROWS) {
      await fillCase(page, row)
      const shown = await shownPrice(page)
      const engine = await priceCase(row, SHIPPED)
      const report = `golden case ${row.name}`
      // the golden table's figures (an independent reading of the tariff) and the engine's worksheet, as kasko price prints it
      expect({ annually: shown.annually, monthly: shown.monthly, premiums: shown.premiums }, report).toEqual(
        row.expected
      )
      expect(shown.worksheet, report).toBe(worksheetTable(engine))
      // the worksheet's facts name the youngest user's age as the API names the parameter
      const facts = await page.locator("main p.facts").first().textContent()
      expect(facts, report).toContain(`youngest_user_age=${engine.facts.youngest_user_age ?? "—"}`)
    }
    expect(problems).toEqual([])
    expect(foreignRequests).toEqual([])
    await close()
  }, 240_000)

  it("offers the catalogue's options and default, and shows the Schema's message at the field", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const main = page.locator("main")
    await main.locator('[data-price="annually"]').waitFor()
    const definition = ProductCatalogue.productDefinition("insurance-car-leasing")!
    const usage = definition.parameters.find((parameter) => parameter.name === "vehicle_usage")!
    expect(
      await main
        .locator('select[name="vehicle_usage"] option')
        .evaluateAll((options) => options.map((option) => option.getAttribute("value")))
    ).toEqual(["", ...usage.options!.map((option) => option.id)])
    expect(await main.locator('select[name="payments_per_year"]').inputValue()).toBe("1")
    expect(await main.locator('label:has-text("Køretøjets pris (kr.)")').count()).toBe(1)

    await main.locator('input[name="vehicle_price"]').fill("12")
    const price = main.locator('input[name="vehicle_price"]')
    expect(await price.getAttribute("aria-invalid")).toBe("true")
    const messageId = (await price.getAttribute("aria-describedby"))!.split(" ").at(-1)!
    expect(await page.locator(`[id="${messageId}"]`).textContent()).toBe("must be between 1000 and 10000000")
    expect(await main.locator(".price-summary").textContent()).toMatch(/^Not priced/)

    await main.locator('select[name="policy_holder"]').selectOption("")
    expect(
      await page
        .locator(
          `[id="${(await main.locator('select[name="policy_holder"]').getAttribute("aria-describedby"))!.split(" ").at(-1)}"]`
        )
        .textContent()
    ).toBe("is required")

    await price.fill("300000")
    await main.locator('select[name="policy_holder"]').selectOption("person")
    expect(await price.getAttribute("aria-invalid")).toBeNull()
    expect(Number(await main.locator('[data-price="annually"]').textContent())).toBeGreaterThan(0)
    expect(problems).toEqual([])
    await close()
  }, 60_000)

  it("prices with the version chosen, or with the one in force on the pricing date", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const main = page.locator("main")
    await main.locator('[data-price="annually"]').waitFor()
    const heading = main.locator(".worksheet-heading")
    expect(await heading.textContent()).toContain("tariff v1 · priced 2026-03-02")
    await main.locator('select[name="tariff"]').selectOption("insurance-car-leasing/v2-proposal.json")
    expect(await heading.textContent()).toContain("tariff v2-proposal · priced 2026-03-02")
    await main.locator('select[name="tariff"]').selectOption("in-force")
    await main.locator('input[name="pricing_date"]').fill("2027-02-01")
    expect(await heading.textContent()).toContain("tariff v2-proposal · priced 2027-02-01")
    await close()
  }, 60_000)

  it("exports the worksheet's tables as CSV", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const main = page.locator("main")
    await main.locator('[data-price="annually"]').waitFor()
    const row = GOLDEN_ROWS.find((candidate) => candidate.name === "leasing extended age 24")!
    await fillCase(page, row)
    const engine = await priceCase(row, SHIPPED)
    const coverageLines = await downloadedText(page, () =>
      main.locator("button", { hasText: "Export Coverage lines as CSV" }).click()
    )
    expect(coverageLines.name).toBe("price-coverage-lines.csv")
    const records = parse(coverageLines.text, { columns: true }) as Array<Record<string, string>>
    expect(records.map((record) => [record["coverage"], record["premium kr"]!.replace(/\s/g, "")])).toEqual(
      engine.coverage_lines.map((line) => [line.coverage, (line.premium_ore / 100).toFixed(2)])
    )
    const charges = await downloadedText(page, () =>
      main.locator("button", { hasText: "Export Charges as CSV" }).click()
    )
    expect(
      (parse(charges.text, { columns: true }) as Array<Record<string, string>>).map((record) =>
        record["charge"]!.replace(" (listed as a coverage)", "")
      )
    ).toEqual(engine.charge_lines.map((line) => line.charge))
    await close()
  }, 60_000)

  it("says beside the case which variant it is and why, by the core's rule, and prices it as either variant", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    const main = page.locator("main")
    await page.goto(`${workbench.url}/#price`)
    await main.locator('[data-price="annually"]').waitFor()
    const rule = (await main.locator(".variant-note .variant-rule").textContent())!
    for (const [parameter, value] of Object.entries(Variant.firstVariantWhen("insurance-car-leasing")))
      expect(rule).toContain(`${parameter} is ${value}`)
    const base = GOLDEN_ROWS.find((row) => row.name === "leasing standard band 300000")!
    for (const policy_holder of ["person", "organization"])
      for (const vehicle_user of ["person", "organization"])
        for (const vehicle_usage of ["privat_person_koersel", "godstransport"]) {
          const parameters = { ...base.parameters, policy_holder, vehicle_user, vehicle_usage }
          await fillCase(page, { ...base, parameters })
          const variant = Variant.variantOf("insurance-car-leasing", parameters)
          const verdict = main.locator(".variant-verdict")
          expect(await verdict.getAttribute("data-variant")).toBe(variant)
          const because = Variant.extendedBecause("insurance-car-leasing", parameters)
          for (const name of Object.keys(Variant.firstVariantWhen("insurance-car-leasing")))
            expect((await verdict.textContent())!.includes(name)).toBe(because.includes(name))
          // the case's own column is the price shown; the other is the case priced as the other variant
          const own = main.locator(`.variant-answer.current[data-variant="${variant}"]`)
          expect((await own.textContent())!.replace(/\s/g, "")).toContain(
            `${await main.locator('[data-price="annually"]').textContent()}krayear`
          )
        }
    // an organization holding a car for private driving differs from a person's only by its variant
    await fillCase(page, { ...base, parameters: { ...base.parameters, policy_holder: "organization" } })
    const asStandard = (await main.locator('.variant-answer[data-variant="standard"]').textContent())!
    const standard = await priceCase(base, SHIPPED)
    expect(asStandard.replace(/\s/g, "")).toContain(`${standard.annually}krayear`)
    expect(await main.locator('.variant-answer [data-only="extended"]').textContent()).toContain("statsafgift")
    expect(problems).toEqual([])
    await close()
  }, 90_000)

  it("is pictured in docs/workbench/price.png", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const main = page.locator("main")
    await main.locator('[data-price="annually"]').waitFor()
    await fillCase(page, GOLDEN_ROWS.find((row) => row.name === "leasing extended age 24")!)
    await screenshot(page, "price")
    await close()
  }, 60_000)
})
