/**
 * Checking a version in Chromium: the linter's findings are those of
 * `kasko tariff check`, the golden tables run in the page, and a failing row
 * is highlighted with expected vs actual and its worksheet.
 */
import { Tariff } from "@kasko/core/actuarial"
import { runCli } from "@kasko/server"
import { priceCase, worksheetTable } from "@kasko/workbench"
import { Result } from "effect"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  GOLDEN_ROWS,
  LEASING_V1,
  launchChromium,
  openPage,
  PROPOSAL,
  screenshot,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

/** v1 with the Standard variant's kasko rule made unreachable, as a new version. */
const UNREACHABLE = (() => {
  const document = JSON.parse(LEASING_V1) as {
    version: string
    effective_from: string
    rules: Array<{ name: string; conditions: unknown }>
  }
  document.version = "v3-unreachable"
  document.effective_from = "2027-06-01"
  document.rules.find((rule) => rule.name === "standard: kasko")!.conditions = {
    all: [{ fact: "variant", operator: "equal", value: "no such variant" }]
  }
  return JSON.stringify(document, null, 2)
})()

describe.skipIf(skipBrowser)("the check view", () => {
  let browser: Browser
  let workbench: TestWorkbench
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench({
      "insurance-car-leasing/v2-proposal.json": PROPOSAL,
      "insurance-car-leasing/v3-unreachable.json": UNREACHABLE
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
  })

  const checkVersion = async (file: string) => {
    const opened = await openPage(browser, workbench)
    await opened.page.goto(`${workbench.url}/#check`)
    await opened.page.locator('main select[name="check-version"]').selectOption(file)
    await opened.page.locator('main .check-results[aria-busy="false"] [data-summary="golden"]').waitFor()
    return opened
  }

  it("passes the shipped tariff: no finding, every golden row", async () => {
    const { page, problems, close } = await checkVersion("insurance-car-leasing/v1.json")
    const main = page.locator("main")
    expect(await main.locator('[data-summary="lint"]').textContent()).toBe(
      "✓ insurance-car-leasing/v1.json: 0 errors, 0 warnings"
    )
    const leasingRows = GOLDEN_ROWS.filter((row) => row.product_name === "insurance-car-leasing").length
    expect(await main.locator('[data-summary="golden"]').textContent()).toBe(
      `✓ ${leasingRows} of ${leasingRows} golden rows pass`
    )
    expect(await main.locator("tr.failed").count()).toBe(0)
    expect(problems).toEqual([])
    await close()
  }, 60_000)

  it("reports the linter's findings as kasko tariff check does", async () => {
    const { page, close } = await checkVersion("insurance-car-leasing/v3-unreachable.json")
    const main = page.locator("main")
    const cli = await runCli([
      "tariff",
      "check",
      join(workbench.directory, "insurance-car-leasing", "v3-unreachable.json")
    ])
    expect(cli.exitCode).toBe(1)
    const [findings, summary] = [
      cli.stdout.trimEnd().split("\n").slice(0, -1).join("\n"),
      cli.stdout.trimEnd().split("\n").at(-1)!
    ]
    expect(findings).toContain('rule "standard: kasko" is unreachable')
    expect(await main.locator("pre.lint-report").textContent()).toBe(findings)
    expect(await main.locator('[data-summary="lint"]').textContent()).toBe(
      `✗ ${summary.replace(`${workbench.directory}/`, "")}`
    )
    await close()
  }, 60_000)

  it("highlights each failing golden row with expected vs actual and its worksheet", async () => {
    const { page, close } = await checkVersion("insurance-car-leasing/v2-proposal.json")
    const main = page.locator("main")
    const proposal = Result.getOrThrow(Tariff.decodeTariff(JSON.parse(PROPOSAL)))
    const leasing = GOLDEN_ROWS.filter((row) => row.product_name === "insurance-car-leasing")
    const failing = []
    for (const row of leasing)
      if ((await priceCase(row, [proposal])).annually !== row.expected!.annually) failing.push(row)
    expect(failing.length).toBeGreaterThan(0)
    expect(await main.locator('[data-summary="golden"]').textContent()).toBe(
      `✗ ${leasing.length - failing.length} of ${leasing.length} golden rows pass; ${failing.length} fail`
    )
    expect(await main.locator("tr.failed .case-name").allTextContents()).toEqual(failing.map((row) => row.name))

    const row = failing.find((candidate) => candidate.name === "leasing standard band 299999")!
    const details = main.locator("tr.failed", { hasText: row.name }).locator("xpath=following-sibling::tr[1]")
    expect(await details.locator('tr[data-item="premium vejhjælp"] td').allTextContents()).toEqual([
      "premium vejhjælp",
      "400.00",
      "450.00"
    ])
    expect(await details.locator('tr[data-item="annually"] td').allTextContents()).toEqual(["annually", "9622", "9672"])
    await details.locator("details.as-text summary").click()
    // the text is written on the details' toggle event, a task after the click: wait for it
    const expected = worksheetTable(await priceCase(row, [proposal]))
    await expect.poll(() => details.locator("pre.worksheet-text").textContent(), { timeout: 5_000 }).toBe(expected)
    await screenshot(page, "check", true)
    await close()
  }, 60_000)
})
