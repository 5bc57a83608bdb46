/**
 * The impact view over a product added as data (issue 44): `kasko workbench --products` with the van product of
 * examples/products and its proposed tariff v2, a book of vans made by `kasko portfolio generate --product`, re-rated
 * in the page's web workers — the same report as `kasko tariff impact --products`, to the byte, with the van's own
 * segments — pictured in docs/workbench/impact-added-product.png.
 */
import { runCli } from "@kasko/server"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  downloadedText,
  EXAMPLE_PRODUCTS,
  launchChromium,
  openPage,
  screenshot,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

const VAN = "insurance-van-business"
const OLD_KEY = `${VAN}/tariffs/v1.json`
const PROPOSAL_FILE = `${VAN}-v2.proposal.json`
const PROPOSAL = join(EXAMPLE_PRODUCTS, PROPOSAL_FILE)
const NEW_KEY = `${PROPOSAL_FILE} (proposal)`

describe.skipIf(skipBrowser)("the impact view over a product added as data", () => {
  let browser: Browser
  let workbench: TestWorkbench
  const files = temporaryDirectory("kasko-impact-van-")
  const book = join(files.path, "vans.csv")
  beforeAll(async () => {
    const generated = await runCli([
      "portfolio",
      "generate",
      "--products",
      EXAMPLE_PRODUCTS,
      "--product",
      VAN,
      "--size",
      "2000",
      "--seed",
      "44",
      "--out",
      book
    ])
    expect(generated.exitCode, generated.stderr).toBe(0)
    browser = await launchChromium()
    workbench = await startTestWorkbench({}, { withProducts: true, proposals: [PROPOSAL] })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
    files.remove()
  })

  it("re-rates a generated book of the van product as kasko tariff impact --products does, its segments its own", async () => {
    const { page, close } = await openPage(browser, workbench)
    try {
      await page.goto(`${workbench.url}/#impact`)
      const main = page.locator("main")
      await main.locator('input[name="portfolio"]').waitFor()
      await main.locator('select[name="impact-product"]').selectOption(VAN)
      await main.locator('select[name="impact-old"]').selectOption(OLD_KEY)
      await main.locator('select[name="impact-new"]').selectOption(NEW_KEY)
      await main.locator('input[name="portfolio"]').setInputFiles(book)
      await main.locator('.impact-status:is([data-state="done"], [data-state="failed"])').waitFor({ timeout: 120_000 })
      expect(await main.locator(".impact-status").getAttribute("data-state")).toBe("done")

      const products = workbench.products!
      const command = [
        "tariff",
        "impact",
        join(products, OLD_KEY),
        PROPOSAL,
        "--portfolio",
        book,
        "--products",
        products,
        "--json"
      ]
      const cli = await runCli(command)
      expect(cli.stderr).toBe("")
      const exported = await downloadedText(page, () =>
        main.locator("button", { hasText: "Export the result as JSON" }).click()
      )
      expect(exported.text).toBe(cli.stdout)
      const report = JSON.parse(cli.stdout) as {
        report: {
          totals: { policies: number }
          parameter_segments?: ReadonlyArray<{ readonly parameter: string }>
        }
      }
      expect(report.report.totals.policies).toBe(2000)
      // the van's own pricing parameters segment the book
      expect((report.report.parameter_segments ?? []).map((segments) => segments.parameter)).toEqual(
        expect.arrayContaining(["annual_mileage_km", "overnight_parking", "tools_cover"])
      )
      // the command line the page gives names the products directory, and runs the same test
      const shown = (await main.locator("code.impact-command").textContent())!.split(" ")
      expect(shown.slice(0, 3)).toEqual(["kasko", "tariff", "impact"])
      expect(shown).toContain("--products")
      expect(shown[shown.indexOf("--products") + 1]).toBe(products)
      await screenshot(page, "impact-added-product")
    } finally {
      await close()
    }
  })
})
