/**
 * The impact view in Chromium: a portfolio file re-rated in the page's web
 * workers reports what `kasko tariff impact` reports for the same versions,
 * book and options — the totals, each band's policies, every segment row, the
 * movers, the capped totals and the solved factor as the page shows them, and
 * its text, CSV and JSON to the byte; a target out of reach said so, as there; rejected cases counted by reason; a
 * malformed file named by its line; a test under way stopped; the histogram
 * exported as SVG and PNG; and the view pictured in docs/workbench/impact.png.
 */
import { runCli } from "@kasko/server"
import type { ImpactResult, TotalsRow } from "@kasko/workbench"
import { readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import type { Browser, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  downloadedText,
  launchChromium,
  openPage,
  IMPACT_BOOK,
  IMPACT_EXAMPLE,
  REBALANCE,
  REBALANCE_KEY,
  screenshot,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

const OLD_KEY = "insurance-car-leasing/v1.json"

/** "−1 234 567.80" (as the page prints kroner, counts and per cents) → -1234567.8; "—" → null. */
const numberOf = (text: string): number | null => {
  const cleaned = text.replace(/[\s%]|kr/g, "").replace("−", "-")
  return cleaned === "—" ? null : Number(cleaned)
}

/** Digits grouped by thousands with spaces, as the page prints counts: `6 414`. */
const grouped = (value: number | string) => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ")

/** The cells' text of a table found by its caption, a row each. */
const tableRows = async (main: Locator, caption: string): Promise<Array<Array<string>>> =>
  main
    .locator("table", { has: main.page().locator("caption", { hasText: caption }) })
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("td")].map((cell) => (cell.textContent ?? "").trim()))
    )

/** A row of totals as the page's table shows it, read back into numbers. */
const totalsOf = (cells: ReadonlyArray<string>) => cells.map(numberOf)
/** The same figures from the command's JSON, in the page's columns (capped ones when capped). */
const expectedTotals = (row: TotalsRow, capped: boolean) => [
  row.policies,
  row.affected,
  row.exposure,
  row.old_kroner,
  row.new_kroner,
  row.change_kroner,
  row.change_percent === null ? null : Math.round(row.change_percent * 100) / 100,
  ...(capped
    ? [
        row.capped_kroner!,
        row.capped_change_percent === null ? null : Math.round(row.capped_change_percent! * 100) / 100
      ]
    : [])
]

interface Options {
  readonly cap_increase?: string
  readonly cap_decrease?: string
  readonly target?: string
  readonly factor_on?: string
  readonly bands?: string
  readonly top?: string
}

/** The command's options for the page's: as a person would type them on both. */
const cliOptions = (options: Options): Array<string> => [
  ...(options.cap_increase === undefined ? [] : [`--cap-increase=${options.cap_increase}`]),
  ...(options.cap_decrease === undefined ? [] : [`--cap-decrease=${options.cap_decrease}`]),
  ...(options.target === undefined ? [] : [`--target=${options.target}`]),
  ...(options.factor_on === undefined ? [] : ["--factor-on", options.factor_on]),
  ...(options.bands === undefined ? [] : [`--bands=${options.bands}`]),
  ...(options.top === undefined ? [] : ["--top", options.top])
]

describe.skipIf(skipBrowser)("the impact view", () => {
  let browser: Browser
  let workbench: TestWorkbench
  const files = temporaryDirectory("kasko-impact-page-")
  const tariff = (key: string) => join(workbench.directory, key)
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench({ [REBALANCE_KEY]: REBALANCE })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
    files.remove()
  })

  const openImpact = async () => {
    const opened = await openPage(browser, workbench)
    await opened.page.goto(`${workbench.url}/#impact`)
    const main = opened.page.locator("main")
    await main.locator('input[name="portfolio"]').waitFor()
    return { ...opened, main }
  }

  /** Types the options, then chooses the file (which starts the test) and waits for its end. */
  const runInPage = async (page: Page, main: Locator, book: string, options: Options) => {
    expect(await main.locator('select[name="impact-old"]').inputValue()).toBe(OLD_KEY)
    expect(await main.locator('select[name="impact-new"]').inputValue()).toBe(REBALANCE_KEY)
    for (const field of ["cap_increase", "cap_decrease", "target", "bands", "top"] as const)
      await main.locator(`input[name="${field}"]`).fill(options[field] ?? "")
    if (options.factor_on !== undefined) await main.locator('select[name="factor_on"]').selectOption(options.factor_on)
    await main.locator('input[name="portfolio"]').setInputFiles(book)
    await main.locator('.impact-status:is([data-state="done"], [data-state="failed"])').waitFor({ timeout: 120_000 })
    void page
  }

  /** The command's output; with `exitCode` 1, for a target out of reach, whose reason it writes on standard error. */
  const cli = async (book: string, options: Options, format: Array<string>, exitCode = 0) => {
    const result = await runCli([
      "tariff",
      "impact",
      tariff(OLD_KEY),
      tariff(REBALANCE_KEY),
      "--portfolio",
      book,
      ...cliOptions(options),
      ...format
    ])
    if (exitCode === 0) expect(result.stderr).toBe("")
    else expect(result.stderr).toMatch(/^kasko tariff impact: the target of \S+ % is unreachable: /)
    expect(result.exitCode).toBe(exitCode)
    return result.stdout
  }

  /** Everything the page shows and exports, against the command's text, CSV and JSON for the same test. */
  const expectTheCommandsFigures = async (page: Page, main: Locator, book: string, options: Options, exitCode = 0) => {
    const json = await cli(book, options, ["--json"], exitCode)
    const expected = JSON.parse(json) as ImpactResult
    const { report } = expected
    const capped = report.caps !== null

    // the exports are the command's outputs, byte for byte
    const exportedJson = await downloadedText(page, () =>
      main.locator("button", { hasText: "Export the result as JSON" }).click()
    )
    expect(exportedJson.name).toBe("impact.json")
    expect(exportedJson.text).toBe(json)
    const exportedCsv = await downloadedText(page, () =>
      main.locator("button", { hasText: "Export the result as CSV" }).click()
    )
    expect(exportedCsv.text).toBe(await cli(book, options, ["--csv"], exitCode))
    expect(await main.locator("pre.impact-report").textContent()).toBe(await cli(book, options, [], exitCode))

    // the command line the page gives runs the same test
    const command = (await main.locator("code.impact-command").textContent())!.split(" ")
    expect(command.slice(0, 7)).toEqual([
      "kasko",
      "tariff",
      "impact",
      tariff(OLD_KEY),
      tariff(REBALANCE_KEY),
      "--portfolio",
      basename(book)
    ])
    expect((await runCli([...command.slice(1, 6), book, ...command.slice(7), "--json"])).stdout).toBe(json)

    // the figures as shown
    const figure = async (name: string) => (await main.locator(`[data-figure="${name}"]`).textContent())!
    const { totals } = report
    expect(await figure("policies")).toBe(`${grouped(totals.policies)} (exposure ${totals.exposure.toFixed(2)})`)
    expect(await figure("affected")).toBe(
      `${grouped(totals.affected)}: ${grouped(totals.increased)} up, ${grouped(totals.decreased)} down, ${grouped(totals.unchanged)} unchanged`
    )
    expect(numberOf(await figure("old"))).toBe(totals.old_kroner)
    expect(numberOf((await figure("new")).split(":")[0]!)).toBe(totals.new_kroner)
    if (capped) {
      expect(numberOf((await figure("capped")).split(" kr")[0]!)).toBe(totals.capped_kroner)
      expect(await figure("capped")).toContain(
        `${report.caps!.capped_increases} increases and ${report.caps!.capped_decreases} decreases held back`
      )
    }
    if (expected.target !== null) {
      expect((await figure("factor")).split(" ")[0]).toBe(expected.target.factor)
      expect(numberOf((await figure("target")).split(" kr")[0]!)).toBe(expected.target.achieved_kroner)
      if (expected.target.uncapped_kroner !== undefined)
        expect(await figure("target")).toContain(
          `uncapped with the factor ${grouped(expected.target.uncapped_kroner.toFixed(2))} kr`
        )
      if (expected.target.reachable) expect(await main.locator('[data-figure="unreachable"]').count()).toBe(0)
      else
        expect(await figure("unreachable")).toBe(
          `${expected.target.target_percent > 0 ? "+" : "−"}${Math.abs(expected.target.target_percent).toFixed(4)} % on the ${expected.target.applies_to}: unreachable: ${expected.target.unreachable_reason}`
        )
    }

    const bands = await tableRows(main, "Policies and premium by band of change")
    expect(bands.map((row) => row[0])).toEqual(report.bands.map((band) => band.band))
    expect(bands.map((row) => totalsOf(row.slice(1)))).toEqual(report.bands.map((band) => expectedTotals(band, capped)))
    // the histogram: a bar per band, as tall as its policies
    const bars = await main
      .locator("svg rect.band-bar")
      .evaluateAll((rects) =>
        rects.map((rect) => [rect.getAttribute("data-band"), Number(rect.getAttribute("data-policies"))])
      )
    expect(bars).toEqual(report.bands.map((band) => [band.band, band.policies]))

    const segments = await tableRows(main, "Policies and premium by segment")
    const expectedSegments = Object.values(report.segments).flat()
    expect(segments.map((row) => row[1])).toEqual(expectedSegments.map((row) => row.segment))
    expect(segments.map((row) => totalsOf(row.slice(2)))).toEqual(
      expectedSegments.map((row) => expectedTotals(row, capped))
    )

    for (const [caption, movers] of [
      ["Largest increases", report.movers.increases],
      ["Largest decreases", report.movers.decreases]
    ] as const) {
      const rows = await tableRows(main, caption)
      expect(rows.map((row) => [row[0], Number(row[1]), row[2], row[3], ...row.slice(4, 7).map(numberOf)])).toEqual(
        movers.map((mover) => [
          mover.policy_id,
          mover.line,
          mover.product_name,
          mover.feature,
          mover.old_kroner,
          mover.new_kroner,
          mover.change_kroner
        ])
      )
      rows.forEach((row, index) => {
        for (const line of movers[index]!.moved_lines) expect(row[8]).toContain(line.item)
      })
    }
    return expected
  }

  it("reports the golden example's impact as kasko tariff impact does, capped and with a target on kasko", async () => {
    const { page, main, problems, foreignRequests, close } = await openImpact()
    const workers: Array<string> = []
    page.on("worker", (worker) => workers.push(worker.url()))
    const options = { cap_increase: "10%", cap_decrease: "5%", target: "+2%", factor_on: "kasko" }
    await runInPage(page, main, IMPACT_BOOK, options)
    expect(await main.locator(".impact-status").getAttribute("data-state")).toBe("done")
    const result = await expectTheCommandsFigures(page, main, IMPACT_BOOK, options)
    // the README's example: its expected summary, here as in the command
    expect(result).toEqual(JSON.parse(readFileSync(join(IMPACT_EXAMPLE, "expected-summary.json"), "utf8")))
    expect(result.target!.passes).toBeGreaterThan(0)
    // priced in web workers of the page, several of them
    expect(workers.length).toBeGreaterThanOrEqual(2)
    expect(workers.every((url) => url === `${workbench.url}/impact-worker.js`)).toBe(true)
    expect(await main.locator('[data-summary="impact"]').textContent()).toMatch(
      /^insurance-car-leasing v1 → v2-rebalance, priced on 2027-01-01: portfolio-10000\.csv, 6 414 policies priced on \d+ web workers? in \d+\.\d s$/
    )
    expect(problems).toEqual([])
    expect(foreignRequests).toEqual([])

    // pictured for the README: the form, the figures and the histogram
    await page.setViewportSize({ width: 1440, height: 1480 })
    // how long it took, and on how many workers, differ from run to run and machine to machine: not pictured
    await main.locator(".impact-timing").evaluate((timing) => timing.remove())
    await screenshot(page, "impact")

    // a field changed since the test ran: its result is dimmed until the fields say what it ran with again
    const results = main.locator(".impact-results")
    expect(await results.getAttribute("class")).toBe("impact-results")
    await main.locator('input[name="cap_increase"]').fill("11%")
    expect(await results.getAttribute("class")).toBe("impact-results stale")
    await main.locator('input[name="cap_increase"]').fill("10%")
    expect(await results.getAttribute("class")).toBe("impact-results")
    await close()
  }, 240_000)

  it("shows a target the caps put out of reach as the command reports it, with the factor nearest it", async () => {
    const { page, main, problems, close } = await openImpact()
    const options = { cap_increase: "10%", cap_decrease: "5%", target: "+20%", factor_on: "kasko" }
    await runInPage(page, main, IMPACT_BOOK, options)
    // the test ran: its result is the report, whose target says it cannot be reached
    expect(await main.locator(".impact-status").getAttribute("data-state")).toBe("done")
    const result = await expectTheCommandsFigures(page, main, IMPACT_BOOK, options, 1)
    expect(result.target).toMatchObject({ reachable: false, on: "kasko" })
    expect(result.target!.unreachable_reason).toMatch(/^the caps bound the total to \[[\d ]+\.\d\d, [\d ]+\.\d\d\] kr$/)
    expect(await main.locator('[data-figure="factor"]').textContent()).toBe(
      `${result.target!.factor} on the rates of kasko, the smallest of six decimals that takes the total to its highest`
    )
    expect(await main.locator('dd[data-figure="unreachable"]').getAttribute("class")).toBe("problem")
    expect(problems).toEqual([])
    await close()
  }, 240_000)

  it("counts the cases that fail validation by reason, from a file dropped on the form, as the command does", async () => {
    const generated = await runCli(["portfolio", "generate", "--size", "2000", "--seed", "7", "--as-of", "2027-01-01"])
    const lines = generated.stdout.trimEnd().split("\n")
    const cell = (line: string, column: number, value: string) => {
      const cells = line.split(",")
      cells[column] = value
      return cells.join(",")
    }
    // vehicle_price (column 9), youngest_user_age (10) and weight (12) broken on some leasing lines
    const leasing = lines.flatMap((line, index) => (line.includes(",insurance-car-leasing,") ? [index] : []))
    for (const index of leasing.slice(5, 12)) lines[index] = cell(lines[index]!, 9, "lots")
    for (const index of leasing.slice(40, 43)) lines[index] = cell(lines[index]!, 10, "12")
    lines[leasing[90]!] = cell(cell(lines[leasing[90]!]!, 12, "-1"), 10, "15")
    const book = files.newFile("book-with-rejections.csv")
    writeFileSync(book, `${lines.join("\n")}\n`)

    const { page, main, problems, close } = await openImpact()
    const options = { target: "-1.5%", bands: "-10,-5,0,5,10", top: "3" }
    for (const field of ["target", "bands", "top"] as const)
      await main.locator(`input[name="${field}"]`).fill(options[field])
    const dropped = await page.evaluateHandle(
      ([text, name]) => {
        // run in the page, whose DataTransfer this suite's (Node) types do not know
        const page = globalThis as unknown as {
          DataTransfer: new () => { items: { add: (file: File) => void } }
        }
        const transfer = new page.DataTransfer()
        transfer.items.add(new File([text], name, { type: "text/csv" }))
        return transfer
      },
      [readFileSync(book, "utf8"), basename(book)] as const
    )
    await main.locator(".portfolio-drop").dispatchEvent("drop", { dataTransfer: dropped })
    await main.locator('.impact-status[data-state="done"]').waitFor({ timeout: 120_000 })
    const result = await expectTheCommandsFigures(page, main, book, options)

    expect(result.report.rejected.cases).toBe(11)
    const rejected = await tableRows(main, "Rejected cases by reason")
    expect(rejected).toEqual(
      result.report.rejected.reasons.map((reason) => [reason.reason, String(reason.cases), reason.lines.join(", ")])
    )
    expect(rejected.map((row) => row[0]!.split(":")[0])).toEqual(
      expect.arrayContaining(["vehicle_price", "youngest_user_age", "weight"])
    )
    expect(await main.locator('[data-figure="rejected"]').textContent()).toBe(
      "11 cases failed validation, listed by reason below"
    )
    // the factor on the whole premium is found by re-pricing, each premium × the factor rounded to the øre
    expect(result.target).toMatchObject({ on: "premium", within_one_krone: true, achieved_change_percent: -1.5 })
    expect(result.target?.passes).toBeGreaterThan(0)
    expect(problems).toEqual([])
    await close()
  }, 180_000)

  it("names the line of a malformed file, as the command does, and shows no result", async () => {
    const lines = readFileSync(IMPACT_BOOK, "utf8").trimEnd().split("\n")
    lines[7_321] = "P9,insurance-car-leasing,standard"
    const broken = files.newFile("broken.csv")
    writeFileSync(broken, `${lines.join("\n")}\n`)
    const command = await runCli(["tariff", "impact", tariff(OLD_KEY), tariff(REBALANCE_KEY), "--portfolio", broken])
    expect(command.exitCode).toBe(1)
    expect(command.stderr).toBe(
      `kasko tariff impact: the portfolio ${broken}, line 7322: has 3 fields, the header 13\n`
    )

    const { page, main, problems, close } = await openImpact()
    await runInPage(page, main, broken, {})
    expect(await main.locator('.problem[role="alert"]').textContent()).toBe(
      `The portfolio ${basename(broken)}, line 7322: has 3 fields, the header 13`
    )
    expect(await main.locator(".impact-results").textContent()).toBe("")

    const header = files.newFile("not-a-portfolio.csv")
    writeFileSync(header, "policy_id,colour\nP1,red\n")
    await main.locator('input[name="portfolio"]').setInputFiles(header)
    await main.locator(".problem", { hasText: "not-a-portfolio.csv, line 1:" }).waitFor()
    expect(await main.locator(".problem").textContent()).toMatch(
      /^The portfolio \d+-not-a-portfolio\.csv, line 1: column 2 "colour" is neither a product parameter/
    )
    expect(problems).toEqual([])
    await close()
  }, 120_000)

  it("names the option that does not read, and runs nothing until it does", async () => {
    const { main, close } = await openImpact()
    await main.locator('input[name="cap_decrease"]').fill("120%")
    await main.locator('input[name="portfolio"]').setInputFiles(IMPACT_BOOK)
    const field = main.locator('input[name="cap_decrease"]')
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    const described = (await field.getAttribute("aria-describedby"))!.split(" ")
    expect(await main.locator(`[id="${described[1]}"]`).textContent()).toBe(
      "the largest decrease: a per cent up to 100, two decimals at most"
    )
    expect(await main.locator(".impact-status").getAttribute("data-state")).toBe("idle")
    await close()
  }, 60_000)

  it("stops a test under way", async () => {
    const book = files.newFile("large.csv")
    const generated = await runCli([
      "portfolio",
      "generate",
      "--size",
      "150000",
      "--seed",
      "3",
      "--as-of",
      "2027-01-01",
      "--out",
      book
    ])
    expect(generated.exitCode).toBe(0)
    const { main, problems, close } = await openImpact()
    await main.locator('input[name="portfolio"]').setInputFiles(book)
    await main.locator('.impact-status[data-state="running"] progress').waitFor()
    await main.locator('button[name="stop"]').click()
    await main.locator('.impact-status[data-state="stopped"]').waitFor()
    expect(await main.locator(".impact-status").textContent()).toBe(`Stopped: ${basename(book)}.`)
    expect(await main.locator(".impact-results").textContent()).toBe("")
    expect(problems).toEqual([])
    await close()
  }, 120_000)

  it("exports the histogram as SVG and as PNG", async () => {
    const { page, main, close } = await openImpact()
    await runInPage(page, main, IMPACT_BOOK, {})
    const svg = await downloadedText(page, () => main.locator("button", { hasText: "Export chart as SVG" }).click())
    expect(svg.name).toBe("impact-bands.svg")
    expect(svg.text).toMatch(/^<\?xml[^>]*>\n<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(svg.text).toContain("Policies by change of their annual premium, v1 → v2-rebalance")
    const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg.text)![1])
    const png = await downloadedText(page, () => main.locator("button", { hasText: "Export chart as PNG" }).click())
    expect(png.name).toBe("impact-bands.png")
    expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(png.bytes.readUInt32BE(16)).toBe(width * 2)
    await close()
  }, 120_000)
})
