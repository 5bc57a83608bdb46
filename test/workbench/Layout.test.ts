/**
 * The workbench in a 1 280 × 800 window, a laptop's, and in a 1 600 px one, where the comparison's two
 * worksheets stand side by side: every view fits its width, with every part of it shown (its folded details
 * opened, a heat map's cell selected, an impact test run). Nothing makes the page scroll
 * sideways, no element of the view reaches past the window's right edge, and no box inside it scrolls sideways
 * to show the rest of what it holds — but a preformatted text (`pre`: a report as the command line prints it,
 * whose columns would not survive wrapping), which a reader scrolls on purpose.
 */
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchChromium, PROPOSAL, ROOT, skipBrowser, startTestWorkbench, type TestWorkbench } from "./support.js"

const WINDOWS = [
  { width: 1280, height: 800 },
  { width: 1600, height: 900 }
] as const

const VIEWS = [
  { name: "price", ready: '[data-price="annually"]' },
  { name: "grid", ready: ".heat-map" },
  { name: "compare", ready: '.changes[aria-busy="false"]' },
  { name: "impact", ready: 'input[name="portfolio"]' },
  { name: "check", ready: '.check-results[aria-busy="false"] [data-summary="golden"]' },
  { name: "edit", ready: '[data-summary="golden"]' },
  { name: "product", ready: '[data-summary="product-check"]' }
] as const

interface Overflow {
  readonly page: { readonly scrollWidth: number; readonly clientWidth: number }
  /** Elements of the view past the window's right edge: "tag.class right=…". */
  readonly pastTheEdge: ReadonlyArray<string>
  /** Boxes of the view (not `pre`) whose content is wider than they are: "tag.class content=… box=…". */
  readonly scrollingSideways: ReadonlyArray<string>
}

/** What of the page is wider than the window, measured in the page as it is laid out. */
const overflowOf = (page: Page): Promise<Overflow> =>
  page.evaluate(() => {
    const document = (globalThis as unknown as { document: any }).document
    const computedStyle = (globalThis as unknown as { getComputedStyle: (element: unknown) => any }).getComputedStyle
    const root = document.documentElement
    const name = (element: any) =>
      `${element.tagName.toLowerCase()}${element.classList.length > 0 ? `.${[...element.classList].join(".")}` : ""}`
    const pastTheEdge: Array<string> = []
    const scrollingSideways: Array<string> = []
    for (const element of document.querySelectorAll("main, main *")) {
      if (element.closest("pre") !== null) continue
      const box = element.getBoundingClientRect()
      if (box.width === 0 && box.height === 0) continue
      if (box.right > root.clientWidth + 0.5) pastTheEdge.push(`${name(element)} right=${Math.round(box.right)}`)
      const overflowX = computedStyle(element).overflowX
      if (overflowX !== "visible" && overflowX !== "clip" && element.scrollWidth > element.clientWidth + 1)
        scrollingSideways.push(`${name(element)} content=${element.scrollWidth} box=${element.clientWidth}`)
    }
    return {
      page: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth },
      pastTheEdge: [...new Set(pastTheEdge)],
      scrollingSideways: [...new Set(scrollingSideways)]
    }
  })

/** Opens a view with all it can show: compare and check on the proposal, a cell selected, a test run, details open. */
const showWhole = async (page: Page, workbench: TestWorkbench, view: (typeof VIEWS)[number]) => {
  await page.goto(`${workbench.url}/#${view.name}`)
  if (view.name === "compare")
    await page.locator('main select[name="new-version"]').selectOption("insurance-car-leasing/v2-proposal.json")
  if (view.name === "check")
    await page.locator('main select[name="check-version"]').selectOption("insurance-car-leasing/v2-proposal.json")
  await page.locator(`main ${view.ready}`).first().waitFor()
  if (view.name === "impact") {
    await page.locator('main input[name="cap_increase"]').fill("10%")
    await page
      .locator('main input[name="portfolio"]')
      .setInputFiles(join(ROOT, "examples", "actuary-workbench", "impact", "portfolio-10000.csv"))
    await page.locator('main .impact-status[data-state="done"]').waitFor({ timeout: 60_000 })
  }
  // a heat map's cell selected: the worksheet or the change it is made of shows below the map
  if (view.name === "grid" || view.name === "compare") {
    await page.locator("main .heat-map rect[data-x]").first().waitFor()
    await page.locator("main .heat-map rect[data-x]").first().hover()
    await page.locator("main .cell-detail *").first().waitFor()
  }
  await page.evaluate(() => {
    const document = (globalThis as unknown as { document: any }).document
    for (const details of document.querySelectorAll("main details")) details.open = true
  })
}

describe.skipIf(skipBrowser)("the workbench in a laptop's window", () => {
  let browser: Browser
  let workbench: TestWorkbench
  beforeAll(async () => {
    browser = await launchChromium()
    // with the example's products: the product editor shows its document and the checker's findings
    workbench = await startTestWorkbench({ "insurance-car-leasing/v2-proposal.json": PROPOSAL }, { withProducts: true })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
  })

  it.each(WINDOWS.flatMap((window) => VIEWS.map((view) => ({ ...view, window }))))(
    "shows the whole $name view within a $window.width px window",
    async ({ window, ...view }) => {
      const context = await browser.newContext({ viewport: window, locale: "en-GB" })
      const page = await context.newPage()
      const problems: Array<string> = []
      page.on("pageerror", (error) => problems.push(error.message))
      await showWhole(page, workbench, view)
      const overflow = await overflowOf(page)
      expect(overflow.page.clientWidth).toBeLessThanOrEqual(window.width)
      expect(overflow.page.scrollWidth).toBeLessThanOrEqual(overflow.page.clientWidth)
      expect(overflow.pastTheEdge).toEqual([])
      expect(overflow.scrollingSideways).toEqual([])
      expect(problems).toEqual([])
      await context.close()
    },
    90_000
  )
})
