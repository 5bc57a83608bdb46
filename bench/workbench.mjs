// The workbench page in Debian's Chromium: the first load (navigation start to the priced form
// painted, a fresh browser context each time, so nothing is cached) and the re-price after a
// keystroke (the input event's time stamp to the updated worksheet). Both come from the page's
// own User Timing entries, `kasko:first-price-painted` and `kasko:reprice`. Medians. Then the impact
// page against the command (`runImpactPageBench`, below).
import { startWorkbenchServer } from "@kasko/workbench-web"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
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

// The impact page (issue 32): a generated book re-rated in the page's web workers, from the file chosen
// to the result (the page's `kasko:impact-run` entry: the header read, the workers started, every chunk
// priced and merged), against `kasko tariff impact` on the same book and versions with as many worker
// threads (spawn to exit, so its start-up is in it). Interleaved rounds, medians; both must report the
// same policies.
const IMPACT_CASES = Number(process.env.KASKO_BENCH_IMPACT_PAGE_CASES ?? 300_000)
const IMPACT_ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)
const KASKO = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const LEASING_V1 = join(ROOT, "packages", "core", "tariffs", "insurance-car-leasing", "v1.json")
const REBALANCE = join(ROOT, "examples", "actuary-workbench", "impact", "insurance-car-leasing-v2-rebalance.json")

/** The command's wall time and the policies it priced. */
const commandRun = (book, workers) => {
  const started = process.hrtime.bigint()
  const run = spawnSync(
    process.execPath,
    [KASKO, "tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", book, "--workers", String(workers), "--json"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }
  )
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  if (run.status !== 0) throw new Error(`kasko tariff impact exited ${run.status}: ${run.stderr}`)
  return { seconds, policies: JSON.parse(run.stdout).report.totals.policies }
}

/** The rows of the impact page's table, or a reason why there are none. */
export const runImpactPageBench = async () => {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is not installed (apt-get install chromium)` }
  const directory = mkdtempSync(join(tmpdir(), "kasko-bench-impact-page-"))
  const book = join(directory, "book.csv")
  const generated = spawnSync(
    process.execPath,
    [
      KASKO,
      "portfolio",
      "generate",
      "--size",
      String(IMPACT_CASES),
      "--seed",
      "19",
      "--as-of",
      "2027-01-01",
      "--out",
      book
    ],
    { cwd: ROOT, encoding: "utf8" }
  )
  if (generated.status !== 0) throw new Error(`kasko portfolio generate failed: ${generated.stderr}`)
  // the proposal loaded beside the shipped tariffs: the view opens on v1 → it, as the command is run
  const workbench = await startWorkbenchServer({
    tariffDirectory: join(ROOT, "packages", "core", "tariffs"),
    proposalPaths: [REBALANCE]
  })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
  })
  try {
    const pageRun = async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
      const page = await context.newPage()
      await page.goto(`${workbench.url}/#impact`)
      await page.locator('main input[name="portfolio"]').setInputFiles(book)
      await page.locator('main .impact-status[data-state="done"]').waitFor({ timeout: 600_000 })
      const [milliseconds] = await entries(page, "kasko:impact-run", "duration")
      const policies = Number(
        (await page.locator('main [data-figure="policies"]').textContent()).split(" (")[0].replace(/\s/g, "")
      )
      const workers = await page.evaluate(() => Math.max(1, Math.min(8, navigator.hardwareConcurrency)))
      await context.close()
      return { seconds: milliseconds / 1000, policies, workers }
    }
    // untimed runs first: the page cache holds the book for every timed one alike
    const reference = await pageRun()
    const workers = reference.workers
    if (commandRun(book, workers).policies !== reference.policies)
      throw new Error("the page and the command priced different numbers of policies")
    const page = []
    const command = []
    for (let round = 0; round < IMPACT_ROUNDS; round++) {
      // the order alternates, so neither side always runs on the warmer machine
      for (const side of round % 2 === 0 ? ["page", "command"] : ["command", "page"]) {
        if (side === "page") page.push((await pageRun()).seconds)
        else command.push(commandRun(book, workers).seconds)
      }
    }
    const [pageSeconds, commandSeconds] = [median(page), median(command)]
    return [
      {
        measure: `impact page, ${IMPACT_CASES.toLocaleString("en")} policies (${(statSync(book).size / 1_048_576).toFixed(0)} MB), ${workers} web workers: file chosen to result`,
        median_s: pageSeconds,
        max_s: Math.max(...page),
        cases_per_s: IMPACT_CASES / pageSeconds,
        vs_command: pageSeconds / commandSeconds
      },
      {
        measure: `kasko tariff impact, the same book and versions, ${workers} worker threads: spawn to exit`,
        median_s: commandSeconds,
        max_s: Math.max(...command),
        cases_per_s: IMPACT_CASES / commandSeconds,
        vs_command: 1
      }
    ]
  } finally {
    await browser.close()
    await workbench.stop()
    rmSync(directory, { recursive: true, force: true })
  }
}
