/**
 * Editing a product document in Chromium, with `kasko workbench --products` over a copy of examples/products: the
 * folder checker's findings appear at their place as one types (errors and warnings apart) and go when fixed; the
 * draft, once it has no error, is the product every other view prices; saving writes a new version into the
 * directory, never over one. Without a products directory the view says how to start with one.
 */
import { ProductCatalogue, TariffDocuments } from "@kasko/core/actuarial"
import { parseGoldenTable, priceCase } from "@kasko/workbench"
import type { RunningWorkbench } from "@kasko/workbench-web"
import { cpSync, existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  EXAMPLE_PRODUCTS,
  fillCase,
  launchChromium,
  openPage,
  screenshot,
  seriousAccessibilityViolations,
  showView,
  skipBrowser,
  startReadmeWorkbench,
  startTestWorkbench
} from "./support.js"

const VAN = "insurance-van-business"
const VAN_DOCUMENT = readFileSync(join(EXAMPLE_PRODUCTS, VAN, "product.json"), "utf8")
const VAN_V1 = JSON.parse(readFileSync(join(EXAMPLE_PRODUCTS, VAN, "tariffs", "v1.json"), "utf8"))

interface VanDocument {
  version: string
  effective_from: string
  features: Array<{ parameter_refs: Array<string> }>
  variants: Array<{ when?: { all: Array<{ fact: string; value: unknown }> } }>
}

/**
 * The van product's v2 as an actuary would write it: taking effect on `date`, Standard only up to 20 000 km a year
 * (v1 says 40 000), and a feature naming a parameter the product lacks (a warning: it loads).
 */
const vanV2 = (date: string): string => {
  const document = JSON.parse(VAN_DOCUMENT) as VanDocument
  document.version = "v2"
  document.effective_from = date
  document.variants[0]!.when!.all.find((condition) => condition.fact === "annual_mileage_km")!.value = 20000
  document.features[0]!.parameter_refs.push("tool_sum")
  return JSON.stringify(document, null, 2)
}

/** The van product with these versions, as a catalogue beside the shipped products. */
const vanCatalogue = (...versions: ReadonlyArray<string>) =>
  ProductCatalogue.withProducts(
    ProductCatalogue.decodeCatalogue(versions.map((version) => JSON.parse(version) as unknown)).versions
  )

/** The engine's worksheet for a case of the van product with these versions, priced by its tariff v1. */
const engineWorksheet = (row: Parameters<typeof priceCase>[0], ...versions: ReadonlyArray<string>) => {
  const catalogue = vanCatalogue(...versions)
  return priceCase(row, TariffDocuments.decodeTariffs([VAN_V1], catalogue), "compiled", catalogue)
}

/** Replaces the editor's whole text, as a paste would. */
const replaceText = async (page: Page, text: string) => {
  await page.locator("main .cm-content").click()
  await page.keyboard.press("Control+A")
  await page.keyboard.insertText(text)
}

/** Moves the cursor into a line of the editor (one in view) and puts it before its last `",`. */
const beforeEndOfValue = async (page: Page, lineText: string) => {
  await page.locator("main .cm-line", { hasText: lineText }).click()
  await page.keyboard.press("End")
  await page.keyboard.press("ArrowLeft")
  await page.keyboard.press("ArrowLeft")
}

describe.skipIf(skipBrowser)("the product editor", () => {
  let browser: Browser
  let workbench: RunningWorkbench
  const products = temporaryDirectory("kasko-products-editor-")
  beforeAll(async () => {
    browser = await launchChromium()
    cpSync(EXAMPLE_PRODUCTS, products.path, { recursive: true })
    workbench = await startReadmeWorkbench(["--products", products.path])
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
    products.remove()
  })

  it("shows a mistake typed into the document at its place, prices the fixed draft everywhere, and saves it as a new version", async () => {
    const { page, problems, foreignRequests, close } = await openPage(browser, workbench)
    const { today } = (await (await fetch(`${workbench.url}/api/workspace`)).json()) as { today: string }
    const year = Number(today.slice(0, 4)) + 1
    await page.goto(`${workbench.url}/#product`)
    const main = page.locator("main")
    await main.locator(".cm-content").waitFor()
    const summary = main.locator('[data-summary="product-check"]')
    expect(await summary.textContent()).toBe(`✓ ${VAN}: 0 errors, 0 warnings`)

    // the next version, pasted in; then a mistake typed into its date: 30 February
    const v2 = vanV2(`${year}-01-01`)
    await replaceText(page, v2)
    await page.keyboard.press("Control+Home")
    await beforeEndOfValue(page, '"effective_from"')
    for (let count = 0; count < 5; count++) await page.keyboard.press("Backspace")
    await page.keyboard.type("02-30")
    await main.locator(".cm-lintRange-error", { hasText: `"${year}-02-30"` }).waitFor()
    expect(await summary.textContent()).toBe(`✗ ${VAN}: 1 error, 1 warning`)
    expect(await main.locator(".findings.errors li .finding-message").allTextContents()).toEqual([
      `${VAN}/versions/v2.json: effective_from: must be a date YYYY-MM-DD, got "${year}-02-30"`
    ])
    expect(await main.locator(".findings.warnings li .finding-message").allTextContents()).toEqual([
      `${VAN}/versions/v2.json: features[0].parameter_refs[12]: names no parameter of the product: "tool_sum"`
    ])
    expect(await main.locator(".draft-status").textContent()).toBe(
      "Edited, not saved. The other views price the saved product until the text has no error: it has 1 error."
    )
    // the warning is underlined where it is too, once its line is in view: Show takes the cursor there
    await main.locator(".findings.warnings li button", { hasText: "Show" }).click()
    await main.locator(".cm-lintRange-warning", { hasText: '"tool_sum"' }).waitFor()
    await page.keyboard.press("Control+Home")

    // fixed as typed: the error goes, the warning stays, and the draft is every view's product
    await beforeEndOfValue(page, '"effective_from"')
    for (let count = 0; count < 5; count++) await page.keyboard.press("Backspace")
    await page.keyboard.type("01-01")
    await summary.filter({ hasText: "✓" }).waitFor()
    expect(await summary.textContent()).toBe(`✓ ${VAN}: 0 errors, 1 warning`)
    // the editor's underlines follow the findings when CodeMirror lints again, a moment after the summary
    await page.waitForFunction('document.querySelectorAll("main .cm-lintRange-error").length === 0')
    expect(await main.locator(".cm-lintRange-error").count()).toBe(0)
    expect(await main.locator(".draft-status").textContent()).toBe(
      `Edited, not saved. It decodes as ${VAN} v2, in force from ${year}-01-01: every view prices it on its dates (the draft).`
    )

    // priced in the price view as the draft says on a date it is in force: 25 000 km a year is Extended under it,
    // Standard under v1, which still prices the day before
    await showView(page, "price")
    const product = main.locator('select[name="product_name"]')
    expect(await product.locator(`option[value="${VAN}"]`).textContent()).toBe(
      "Erhvervsforsikring til varevogn, forhandler (insurance-van-business) — draft, unsaved"
    )
    const [golden] = parseGoldenTable(
      readFileSync(join(EXAMPLE_PRODUCTS, "insurance-van-business-v1.golden.csv"), "utf8"),
      vanCatalogue(VAN_DOCUMENT)
    )
    const row = { ...golden!, pricing_date: `${year}-01-01` }
    const annually = main.locator('[data-price="annually"]')
    await fillCase(page, { ...row, pricing_date: `${year - 1}-12-31` })
    await main.locator('.variant-verdict[data-variant="standard"]').waitFor()
    const dayBefore = await engineWorksheet({ ...row, pricing_date: `${year - 1}-12-31` }, VAN_DOCUMENT)
    expect(Number(await annually.textContent())).toBe(dayBefore.annually)
    await fillCase(page, row)
    await main.locator('.variant-verdict[data-variant="extended"]').waitFor()
    const draftPrice = (await engineWorksheet(row, VAN_DOCUMENT, v2)).annually
    expect(draftPrice).not.toBe((await engineWorksheet(row, VAN_DOCUMENT)).annually)
    expect(Number(await annually.textContent())).toBe(draftPrice)
    expect(await main.locator(".variant-rule").textContent()).toContain("annual_mileage_km is at most 20000")

    // saved into the directory as a new version, once; the draft's text is the file's
    await showView(page, "product")
    await main.locator(".cm-content").waitFor()
    await main.locator("button", { hasText: "Save as a new version" }).click()
    await main.locator(".save-message", { hasText: "Saved as" }).waitFor()
    expect(await main.locator(".save-message").textContent()).toBe(
      `Saved as ${VAN}/versions/v2.json in ${products.path}.`
    )
    expect(readFileSync(join(products.path, VAN, "versions", "v2.json"), "utf8")).toBe(`${v2}\n`)
    expect(readFileSync(join(products.path, VAN, "product.json"), "utf8")).toBe(VAN_DOCUMENT)
    expect(await main.locator('select[name="open-product"] option').allTextContents()).toEqual([
      `${VAN} v1 (from 2026-01-01) · product.json`,
      `${VAN} v2 (from ${year}-01-01) · versions/v2.json`
    ])
    expect(problems).toEqual([])
    await main.locator("button", { hasText: "Save as a new version" }).click()
    const refusal = main.locator('.save-message[role="alert"]')
    await refusal.waitFor()
    // the browser logs the refusal's 409 as a failed request; the page shows why
    expect(problems).toEqual([
      "console error: Failed to load resource: the server responded with a status of 409 (Conflict)"
    ])
    expect(await refusal.textContent()).toMatch(
      new RegExp(`^Not saved: ${VAN}/versions/v2\\.json is there already: a version is never overwritten`)
    )
    // saved, it is a version of the directory's product: the price view prices it on its date, as kasko serve would
    await showView(page, "price")
    expect(await product.locator(`option[value="${VAN}"]`).textContent()).toBe(
      "Erhvervsforsikring til varevogn, forhandler (insurance-van-business)"
    )
    await fillCase(page, row)
    await main.locator('.variant-verdict[data-variant="extended"]').waitFor()
    expect(Number(await annually.textContent())).toBe(draftPrice)
    expect(foreignRequests).toEqual([])
    await close()
  }, 120_000)

  it("completes from the product document's Schema", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#product`)
    await page.locator("main .cm-content").waitFor()
    await replaceText(page, '{\n  "parameters": [{"name": "x", "type": ')
    await page.keyboard.press("Control+Space")
    const options = page.locator(".cm-tooltip-autocomplete li")
    await options.first().waitFor()
    expect(await options.allTextContents()).toEqual([
      '"date"allowed value',
      '"enum"allowed value',
      '"number"allowed value'
    ])
    await close()
  }, 60_000)

  it("refuses to save a document with an error, saying which, and writes nothing", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#product`)
    const main = page.locator("main")
    await main.locator(".cm-content").waitFor()
    const document = JSON.parse(VAN_DOCUMENT) as Record<string, unknown>
    await replaceText(page, JSON.stringify({ ...document, version: "v9", effective_from: "2099-01-01", tittle: "x" }))
    await main.locator("button", { hasText: "Save as a new version" }).click()
    const refusal = main.locator('.save-message[role="alert"]')
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain(
      `${VAN}/versions/v9.json: tittle: is not a known member: did you mean "title"?`
    )
    expect(existsSync(join(products.path, VAN, "versions", "v9.json"))).toBe(false)
    await close()
  }, 60_000)
})

describe.skipIf(skipBrowser)("the product editor's picture", () => {
  it("has no serious accessibility violation with findings shown, and is pictured in docs/workbench/product.png", async () => {
    const browser = await launchChromium()
    // the in-process workbench, its date fixed: the picture is the same on any day
    const workbench = await startTestWorkbench({}, { withProducts: true })
    try {
      const { page, close } = await openPage(browser, workbench)
      await page.goto(`${workbench.url}/#product`)
      const main = page.locator("main")
      await main.locator(".cm-content").waitFor()
      await replaceText(page, vanV2("2027-02-30"))
      await page.keyboard.press("Control+Home")
      await main.locator(".cm-lintRange-error", { hasText: '"2027-02-30"' }).waitFor()
      await main.locator('[data-summary="product-check"]', { hasText: "1 error, 1 warning" }).waitFor()
      expect(await seriousAccessibilityViolations(page)).toEqual([])
      await screenshot(page, "product")
      await close()
    } finally {
      await browser.close()
      await workbench.stop()
    }
  }, 60_000)
})

describe.skipIf(skipBrowser)("the product editor without a products directory", () => {
  it("says the workbench needs one, the shipped products being the core's", async () => {
    const browser = await launchChromium()
    const workbench = await startTestWorkbench()
    try {
      const { page, close } = await openPage(browser, workbench)
      await page.goto(`${workbench.url}/#product`)
      const note = page.locator('main [data-summary="no-products"]')
      await note.waitFor()
      expect(await note.textContent()).toMatch(
        /start the workbench with --products DIR .* the core's, not an insurer's files/
      )
      expect(await page.locator("main .cm-content").count()).toBe(0)
      await close()
    } finally {
      await browser.close()
      await workbench.stop()
    }
  }, 60_000)
})
