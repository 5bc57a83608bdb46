/**
 * Shared set-up of the workbench's browser tests: Debian's Chromium driven by
 * playwright-core, a workbench server over a copy of the shipped tariffs
 * (plus whatever versions a test adds) with the repository's golden table,
 * its date fixed, and helpers to fill the case form as a person would.
 * Without /usr/bin/chromium the suites are skipped with a note — except in
 * CI, where a missing browser fails them.
 */
import { TariffDocuments } from "@kasko/core/actuarial"
import type { Tariff } from "@kasko/core/actuarial"
import { ProductFolders } from "@kasko/server"
import { startWorkbenchServer, type RunningWorkbench } from "@kasko/workbench-web"
import { parseGoldenTable, type GoldenCase } from "@kasko/workbench"
import { spawn } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { chromium, type Browser, type Page } from "playwright-core"
import { temporaryDirectory } from "../support.js"

export const ROOT = join(import.meta.dirname, "..", "..")
export const SHIPPED_TARIFFS = join(ROOT, "packages", "core", "tariffs")
export const GOLDEN_DIRECTORY = join(ROOT, "examples", "actuary-workbench", "golden")
export const GOLDEN_FILE = join(GOLDEN_DIRECTORY, "reference-tariff-v1.csv")
/** The example's proposed leasing tariff (vejhjælp 400 → 450 kr, godstransport loading 25 % → 28 %), as text. */
export const PROPOSAL = readFileSync(
  join(ROOT, "examples", "actuary-workbench", "tariffs", "insurance-car-leasing-v2-proposal.json"),
  "utf8"
)
export const LEASING_V1 = readFileSync(join(SHIPPED_TARIFFS, "insurance-car-leasing", "v1.json"), "utf8")
export const SCREENSHOTS = join(ROOT, "docs", "workbench")
// the impact example: a generated book and the rebalanced leasing proposal, saved under REBALANCE_KEY
export const IMPACT_EXAMPLE = join(ROOT, "examples", "actuary-workbench", "impact")
export const IMPACT_BOOK = join(IMPACT_EXAMPLE, "portfolio-10000.csv")
export const REBALANCE = readFileSync(join(IMPACT_EXAMPLE, "insurance-car-leasing-v2-rebalance.json"), "utf8")
export const REBALANCE_KEY = "insurance-car-leasing/v2-rebalance.json"
/** The workbench's "today" in every test: the golden table's pricing date. */
export const TODAY = "2026-03-02"

export const GOLDEN_ROWS: ReadonlyArray<GoldenCase> = parseGoldenTable(readFileSync(GOLDEN_FILE, "utf8"))
export const SHIPPED: ReadonlyArray<Tariff.Tariff> = TariffDocuments.decodeTariffs(
  TariffDocuments.SHIPPED_TARIFF_DOCUMENTS
)

const CHROMIUM = "/usr/bin/chromium"
const available = existsSync(CHROMIUM)
const inCi = process.env["CI"] === "true"
/** Whether to skip the browser suites: only outside CI, only without Chromium. */
export const skipBrowser = !available && !inCi
if (skipBrowser)
  console.warn(`skipping the workbench browser tests: ${CHROMIUM} is not installed (apt-get install chromium)`)

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-partial-raster"
    ]
  })

/** The example products directory: the van product added as files, and its golden table. */
export const EXAMPLE_PRODUCTS = join(ROOT, "examples", "products")

export interface TestWorkbench extends RunningWorkbench {
  /** The tariff directory the server works on (a copy, removed by `stop`). */
  readonly directory: string
  /** The products directory it works on, when started with one (a copy of examples/products, removed by `stop`). */
  readonly products?: string
}

/**
 * A workbench over a copy of the shipped tariffs; `extraVersions` writes more tariff files (`<product>/<version>.json`
 * → its text); `withProducts` adds a copy of examples/products as its products directory, read as `kasko workbench
 * --products` reads it.
 */
export const startTestWorkbench = async (
  extraVersions: Readonly<Record<string, string>> = {},
  {
    withProducts = false,
    proposals = []
  }: { readonly withProducts?: boolean; readonly proposals?: ReadonlyArray<string> } = {}
): Promise<TestWorkbench> => {
  const directory = temporaryDirectory("kasko-workbench-page-")
  cpSync(SHIPPED_TARIFFS, directory.path, { recursive: true })
  for (const [file, source] of Object.entries(extraVersions)) {
    mkdirSync(join(directory.path, file, ".."), { recursive: true })
    writeFileSync(join(directory.path, file), source)
  }
  const products = withProducts ? temporaryDirectory("kasko-workbench-products-") : undefined
  if (products !== undefined) cpSync(EXAMPLE_PRODUCTS, products.path, { recursive: true })
  const running = await startWorkbenchServer({
    tariffDirectory: directory.path,
    goldenPaths: [GOLDEN_DIRECTORY],
    proposalPaths: proposals,
    today: () => TODAY,
    ...(products === undefined
      ? {}
      : {
          products: {
            directory: products.path,
            readFolders: () => ProductFolders.readProductFolders(products.path)
          }
        })
  })
  return {
    ...running,
    directory: directory.path,
    ...(products === undefined ? {} : { products: products.path }),
    stop: async () => {
      await running.stop()
      directory.remove()
      products?.remove()
    }
  }
}

/**
 * `npx kasko workbench` as the README starts it, from the repository root
 * (on a free port): the shipped tariffs, whatever the command loads besides
 * them by default, and the clock's today — with the options given (`--products DIR`).
 * No tariff may be saved through it: it works on the shipped tariffs themselves.
 */
export const startReadmeWorkbench = async (options: ReadonlyArray<string> = []): Promise<RunningWorkbench> => {
  const child = spawn(
    process.execPath,
    [join(ROOT, "packages", "server", "bin", "kasko.mjs"), "workbench", "--port", "0", ...options],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"]
    }
  )
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`kasko workbench exited ${code} before printing its URL`)))
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /^kasko workbench: (http:\/\/[^/ ]+)\/ /.exec(line)
      if (match) resolve(match[1]!)
    })
  })
  return {
    url,
    stop: async () => {
      child.kill("SIGINT")
      await exited
    }
  }
}

/** A page that fails the test on any script error, and records every request that leaves the workbench. */
export const openPage = async (browser: Browser, workbench: RunningWorkbench) => {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 1000 },
    acceptDownloads: true,
    locale: "en-GB"
  })
  const page = await context.newPage()
  const problems: Array<string> = []
  const foreignRequests: Array<string> = []
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`)
  })
  page.on("request", (request) => {
    if (
      !request.url().startsWith(workbench.url) &&
      !request.url().startsWith("data:") &&
      !request.url().startsWith("blob:")
    )
      foreignRequests.push(request.url())
  })
  return { page, problems, foreignRequests, close: () => context.close() }
}

/** Opens a view by its link in the navigation and waits until it is drawn. */
export const showView = async (page: Page, name: "price" | "grid" | "compare" | "check" | "edit" | "product") => {
  await page.locator(`nav a[data-view="${name}"]`).click()
  await page.locator(`main[data-view="${name}"]`).waitFor()
}

/** Fills the case form of the view in `main` with a golden row (or any case), field by field. */
export const fillCase = async (
  page: Page,
  row: Pick<GoldenCase, "product_name" | "feature" | "pricing_date" | "parameters">
) => {
  const main = page.locator("main")
  const product = main.locator('select[name="product_name"]')
  if ((await product.inputValue()) !== row.product_name) await product.selectOption(row.product_name)
  const feature = main.locator('select[name="feature"]')
  if ((await feature.inputValue()) !== row.feature) await feature.selectOption(row.feature)
  await main.locator('input[name="pricing_date"]').fill(row.pricing_date)
  // every parameter the form has, which are the case's product's
  const names = await main
    .locator("fieldset.parameters [name]")
    .evaluateAll((fields) => fields.map((field) => field.getAttribute("name")!))
  for (const name of names) {
    const field = main.locator(`fieldset.parameters [name="${name}"]`)
    const value = row.parameters[name] ?? ""
    if ((await field.evaluate((element) => element.tagName)) === "SELECT") await field.selectOption(value)
    else await field.fill(value)
  }
}

/**
 * Whether the screenshots are kept in docs/workbench (committed: the README shows them): only when asked
 * (KASKO_WRITE_WORKBENCH_PICTURES=1), as Chromium's pixels differ between its versions and machines, and a test run
 * must not leave the tree changed.
 */
export const writesScreenshots = (environment: Readonly<Record<string, string | undefined>> = process.env): boolean =>
  environment["KASKO_WRITE_WORKBENCH_PICTURES"] === "1"

/** Takes a screenshot of the page, kept as docs/workbench/<name>.png when `writesScreenshots`. */
export const screenshot = async (page: Page, name: string, fullPage = false) => {
  // no focus ring or open picker in the picture
  await page.evaluate(() => {
    const window = globalThis as unknown as {
      scrollTo: (x: number, y: number) => void
      document: {
        activeElement: { blur?: () => void } | null
        getElementById: (id: string) => { textContent: string | null } | null
      }
    }
    window.document.activeElement?.blur?.()
    window.scrollTo(0, 0)
    // the test's temporary directories have a new random name each run: the picture shows stable ones
    const directory = window.document.getElementById("directory")
    if (directory !== null)
      directory.textContent = (directory.textContent ?? "")
        .replace(/\/\S*kasko-workbench-page-[^ ]+/, "./my-tariffs")
        .replace(/\/\S*kasko-workbench-products-[^ ]+/, "./my-products")
  })
  if (!writesScreenshots()) {
    await page.screenshot({ fullPage })
    return
  }
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage })
}

/** Runs axe-core in the page and answers its serious and critical violations. */
export const seriousAccessibilityViolations = async (
  page: Page
): Promise<Array<{ id: string; impact: string; help: string; targets: Array<string> }>> => {
  const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
  // evaluated through the DevTools protocol, which the page's script-src 'self' does not govern
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown
          ) => Promise<{
            violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: Array<string> }> }>
          }>
        }
      }
    ).axe
    const results = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ["violations"]
    })
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(" "))
      }))
  })
}

/** The text a download carries. */
export const downloadedText = async (
  page: Page,
  click: () => Promise<void>
): Promise<{ name: string; text: string; bytes: Buffer }> => {
  const [download] = await Promise.all([page.waitForEvent("download"), click()])
  const path = await download.path()
  const bytes = readFileSync(path)
  return { name: download.suggestedFilename(), text: bytes.toString("utf8"), bytes }
}
