/**
 * The workbench for keyboard and screen-reader users: axe-core finds no
 * serious or critical violation in any view, every view is reached from the
 * navigation by keyboard, the form prices by keyboard, the heat map's cells
 * are reached with the arrow keys, an impact test runs by keyboard (its
 * portfolio chosen too), and the editor lets Tab go.
 */
import { join } from "node:path"
import type { Browser, FileChooser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  launchChromium,
  openPage,
  PROPOSAL,
  ROOT,
  seriousAccessibilityViolations,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

/** Presses Tab until the focused element matches the selector (at most `limit` times). */
const tabTo = async (page: Page, selector: string, limit = 60) => {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press("Tab")
    if (
      await page.evaluate(
        (wanted) =>
          (
            globalThis as unknown as { document: { activeElement: { matches: (s: string) => boolean } | null } }
          ).document.activeElement?.matches(wanted) ?? false,
        selector
      )
    )
      return
  }
  throw new Error(`Tab never reached ${selector}`)
}

const VIEWS = [
  { name: "price", ready: '[data-price="annually"]' },
  { name: "grid", ready: ".heat-map" },
  { name: "compare", ready: '.changes[aria-busy="false"]' },
  { name: "impact", ready: 'input[name="portfolio"]' },
  { name: "check", ready: '.check-results[aria-busy="false"] [data-summary="golden"]' },
  { name: "edit", ready: ".cm-content" },
  // without a products directory: the note saying how to start with one (the editor's own check is ProductEditor.test.ts's)
  { name: "product", ready: '[data-summary="no-products"]' }
] as const

describe.skipIf(skipBrowser)("the workbench's accessibility", () => {
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

  it.each(VIEWS)(
    "has no serious or critical axe-core violation in the $name view",
    async ({ name, ready }) => {
      const { page, close } = await openPage(browser, workbench)
      await page.goto(`${workbench.url}/#${name}`)
      if (name === "compare")
        await page.locator('main select[name="new-version"]').selectOption("insurance-car-leasing/v2-proposal.json")
      if (name === "check")
        await page.locator('main select[name="check-version"]').selectOption("insurance-car-leasing/v2-proposal.json")
      await page.locator(`main ${ready}`).first().waitFor()
      // the impact view with a result: its figures, histogram, tables and movers
      if (name === "impact") {
        await page.locator('main input[name="cap_increase"]').fill("10%")
        await page
          .locator('main input[name="portfolio"]')
          .setInputFiles(join(ROOT, "examples", "actuary-workbench", "impact", "portfolio-10000.csv"))
        await page.locator('main .impact-status[data-state="done"]').waitFor({ timeout: 60_000 })
      }
      if (name === "grid") await page.locator('main rect[data-x="300000"][data-y="21"]').hover()
      expect(await seriousAccessibilityViolations(page)).toEqual([])
      await close()
    },
    60_000
  )

  it("reaches every view from the navigation by keyboard, and moves focus into the view", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/`)
    await page.locator('main [data-price="annually"]').waitFor()
    for (const { name, ready } of VIEWS.slice(1)) {
      await tabTo(page, `nav a[data-view="${name}"]`)
      await page.keyboard.press("Enter")
      await page.locator(`main[data-view="${name}"] ${ready}`).first().waitFor()
      expect(await page.locator(`nav a[data-view="${name}"]`).getAttribute("aria-current")).toBe("page")
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id
        )
      ).toBe("view")
      // back to the top for the next link
      await page.locator("header h1").click()
    }
    await close()
  }, 90_000)

  it("prices as one types, by keyboard alone", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#price`)
    const annually = page.locator('main [data-price="annually"]')
    await annually.waitFor()
    await tabTo(page, 'main input[name="vehicle_price"]')
    await page.keyboard.press("End")
    const before = Number(await annually.textContent())
    await page.keyboard.type("0")
    expect(await page.locator('main input[name="vehicle_price"]').inputValue()).toBe("2500000")
    expect(Number(await annually.textContent())).toBeGreaterThan(before)
    await close()
  }, 60_000)

  it("moves between the heat map's cells with the arrow keys, showing each cell's worksheet", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#grid`)
    await page.locator("main .heat-map").waitFor()
    await tabTo(page, "main .chart-frame")
    const status = page.locator("main .cell-status")
    expect(await status.textContent()).toBe("vehicle_price 100000, youngest_user_age 18: 8334")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowDown")
    expect(await status.textContent()).toMatch(/^vehicle_price 300000, youngest_user_age 20: \d+$/)
    expect(await page.locator("main .cell-detail h3").textContent()).toBe(
      "Cell vehicle_price=300000, youngest_user_age=20"
    )
    await close()
  }, 60_000)

  it("runs an impact test by keyboard alone, the portfolio chosen from the keyboard", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#impact`)
    await page.locator('main input[name="portfolio"]').waitFor()
    // the form is drawn again when the versions arrive, which can take the focus from an input reached before: Tab
    // to it again and press again (the chooser must still open from the keyboard)
    const chooseFromKeyboard = async (attempts: number): Promise<FileChooser> => {
      await tabTo(page, 'main input[name="portfolio"]')
      try {
        const [opened] = await Promise.all([
          page.waitForEvent("filechooser", { timeout: 5_000 }),
          page.keyboard.press("Space")
        ])
        return opened
      } catch (error) {
        if (attempts <= 1) throw error
        return chooseFromKeyboard(attempts - 1)
      }
    }
    const chooser = await chooseFromKeyboard(3)
    await chooser.setFiles(join(ROOT, "examples", "actuary-workbench", "impact", "portfolio-10000.csv"))
    const figure = (name: string) => page.locator(`main [data-figure="${name}"]`)
    await figure("policies").waitFor({ timeout: 60_000 })
    expect(await figure("capped").count()).toBe(0)
    await tabTo(page, 'main input[name="cap_increase"]')
    await page.keyboard.type("10%")
    await tabTo(page, 'main button[type="submit"]')
    await page.keyboard.press("Enter")
    await figure("capped").waitFor({ timeout: 60_000 })
    expect(await figure("capped").textContent()).toContain("increases held at +10 %")
    await close()
  }, 90_000)

  it("lets Tab leave the tariff editor, and types into it from the keyboard", async () => {
    const { page, close } = await openPage(browser, workbench)
    await page.goto(`${workbench.url}/#edit`)
    await page.locator("main .cm-content").waitFor()
    await tabTo(page, "main .cm-content")
    await page.keyboard.press("Control+End")
    await page.keyboard.type(" ")
    await page.locator("main .draft-status", { hasText: "Edited, not saved." }).waitFor()
    await page.keyboard.press("Tab")
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document
            .activeElement?.textContent
      )
    ).toBe("Save as a new version")
    await close()
  }, 60_000)
})
