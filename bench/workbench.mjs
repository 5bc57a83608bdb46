// The workbench page in Debian's Chromium: the first load (navigation start to the priced form
// painted, a fresh browser context each time, so nothing is cached) and the re-price after a
// keystroke (the input event's time stamp to the updated worksheet). Both come from the page's
// own User Timing entries, `kasko:first-price-painted` and `kasko:reprice`. Medians.
import { startWorkbenchServer } from "@kasko/workbench-web"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { chromium } from "playwright-core"

const CHROMIUM = "/usr/bin/chromium"
const LOADS = 9
const KEYSTROKES = 40
const ROOT = join(import.meta.dirname, "..")
// issue 19's targets
const TARGET_FIRST_LOAD_MS = 1_000
const TARGET_REPRICE_MS = 16

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const entries = (page, name, field) =>
  page.evaluate(([wanted, key]) => performance.getEntriesByName(wanted).map((entry) => entry[key]), [name, field])

/** The rows of the table, or a reason why there are none (no browser on this machine). */
export const runWorkbenchBench = async () => {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is not installed (apt-get install chromium)` }
  const workbench = await startWorkbenchServer({
    // read only: the bench never saves
    tariffDirectory: join(ROOT, "packages", "core", "tariffs"),
    goldenPaths: [join(ROOT, "examples", "actuary-workbench", "golden")]
  })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
  })
  try {
    const openPriceView = async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
      const page = await context.newPage()
      await page.goto(`${workbench.url}/#price`)
      await page.waitForFunction(() => performance.getEntriesByName("kasko:first-price-painted").length > 0)
      return { page, context }
    }
    const loads = []
    for (let load = 0; load < LOADS; load++) {
      const { page, context } = await openPriceView()
      loads.push((await entries(page, "kasko:first-price-painted", "startTime"))[0])
      await context.close()
    }
    const { page, context } = await openPriceView()
    const price = page.locator('main input[name="vehicle_price"]')
    await price.click()
    await page.keyboard.press("End")
    for (let keystroke = 0; keystroke < KEYSTROKES; keystroke++)
      await page.keyboard.press(keystroke % 2 === 0 ? "5" : "Backspace")
    const reprices = await entries(page, "kasko:reprice", "duration")
    await context.close()
    if (reprices.length !== KEYSTROKES) throw new Error(`${KEYSTROKES} keystrokes re-priced ${reprices.length} times`)
    return [
      {
        measure: `first load, ${LOADS} cold loads`,
        median_ms: median(loads),
        max_ms: Math.max(...loads),
        target_ms: TARGET_FIRST_LOAD_MS,
        median_vs_target: median(loads) / TARGET_FIRST_LOAD_MS
      },
      {
        measure: `re-price after a keystroke, ${KEYSTROKES} keystrokes`,
        median_ms: median(reprices),
        max_ms: Math.max(...reprices),
        target_ms: TARGET_REPRICE_MS,
        median_vs_target: median(reprices) / TARGET_REPRICE_MS
      }
    ]
  } finally {
    await browser.close()
    await workbench.stop()
  }
}
