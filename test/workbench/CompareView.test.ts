/**
 * Comparing versions in Chromium: the changed cases are those
 * `kasko tariff diff` reports, to the øre, and the heat map's change in per
 * cent is the change between two `kasko price-grid` runs, one per version.
 * Started as the README starts it, the workbench opens on a comparison that
 * changes cases, with the variant rule beside the case.
 */
import { Variant } from "@kasko/core/actuarial"
import type { RunningWorkbench } from "@kasko/workbench-web"
import { runCli } from "@kasko/server"
import { parse } from "csv-parse/sync"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import {
  downloadedText,
  GOLDEN_FILE,
  launchChromium,
  openPage,
  PROPOSAL,
  ROOT,
  screenshot,
  SHIPPED_TARIFFS,
  skipBrowser,
  startReadmeWorkbench,
  startTestWorkbench,
  TODAY,
  type TestWorkbench
} from "./support.js"

const STANDARD_CAR = {
  payments_per_year: "1",
  policy_holder: "person",
  vehicle_type: "personbil",
  vehicle_user: "person",
  vehicle_owner: "organization"
}

describe.skipIf(skipBrowser)("the compare view", () => {
  let browser: Browser
  let workbench: TestWorkbench
  const output = temporaryDirectory("kasko-compare-cli-")
  const v1 = () => join(workbench.directory, "insurance-car-leasing", "v1.json")
  const proposal = () => join(workbench.directory, "insurance-car-leasing", "v2-proposal.json")
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench({ "insurance-car-leasing/v2-proposal.json": PROPOSAL })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
    output.remove()
  })

  const openComparison = async () => {
    const opened = await openPage(browser, workbench)
    const main = opened.page.locator("main")
    await opened.page.goto(`${workbench.url}/#compare`)
    await main.locator('select[name="old-version"]').selectOption("insurance-car-leasing/v1.json")
    await main.locator('select[name="new-version"]').selectOption("insurance-car-leasing/v2-proposal.json")
    await main.locator(".changes[aria-busy=false] .diff-report").waitFor({ state: "attached" })
    return opened
  }

  it("lists the changed cases with the numbers of kasko tariff diff", async () => {
    const { page, problems, foreignRequests, close } = await openComparison()
    const main = page.locator("main")
    const text = await runCli(["tariff", "diff", v1(), proposal(), "--cases", GOLDEN_FILE])
    expect(text.exitCode).toBe(0)
    expect(await main.locator(".diff-report").textContent()).toBe(text.stdout)
    expect(await main.locator('[data-summary="diff"]').textContent()).toBe(
      /(\d+ of \d+ cases change)/.exec(text.stdout)![1]
    )

    const json = JSON.parse(
      (await runCli(["tariff", "diff", v1(), proposal(), "--cases", GOLDEN_FILE, "--json"])).stdout
    ) as Array<Record<string, unknown>>
    const exported = await downloadedText(page, () => main.locator(".changes button", { hasText: "CSV" }).click())
    const rows = (parse(exported.text, { columns: true }) as Array<Record<string, string>>).map((row) => ({
      ...row,
      old_kroner: Number(row["old_kroner"]),
      new_kroner: Number(row["new_kroner"]),
      change_kroner: Number(row["change_kroner"]),
      change_percent: row["change_percent"] === "" ? null : Number(row["change_percent"])
    }))
    expect(rows).toEqual(json)
    expect(await main.locator(".changes tbody tr").count()).toBe(json.length)
    expect(problems).toEqual([])
    expect(foreignRequests).toEqual([])
    await close()
  }, 90_000)

  it("maps the change in per cent over two parameters as two kasko price-grid runs give it", async () => {
    const { page, close } = await openComparison()
    const main = page.locator("main")
    await main.locator('select[name="x-parameter"]').selectOption("vehicle_price")
    await main.locator('input[name="x-values"]').fill("100000:500000:100000")
    await main.locator('select[name="y-parameter"]').selectOption("vehicle_usage")
    await main
      .locator('input[name="y-values"]')
      .fill("privat_person_koersel,godstransport_halv_omsaetning,godstransport")
    for (const [name, value] of Object.entries(STANDARD_CAR))
      await main.locator(`select[name="${name}"]`).selectOption(value)

    const grid = async (tariff: string) => {
      const out = output.newFile("grid")
      const result = await runCli([
        "price-grid",
        "--product",
        "insurance-car-leasing",
        "--feature",
        "standard",
        "--date",
        TODAY,
        ...Object.entries(STANDARD_CAR).flatMap(([name, value]) => ["--param", `${name}=${value}`]),
        "--x",
        "vehicle_price=100000:500000:100000",
        "--y",
        "vehicle_usage=privat_person_koersel,godstransport_halv_omsaetning,godstransport",
        "--tariff",
        tariff,
        "--out",
        out
      ])
      expect(result.stderr).toBe("")
      return parse(readFileSync(`${out}.csv`, "utf8"), { columns: true }) as Array<Record<string, string>>
    }
    const [before, after] = [await grid(v1()), await grid(proposal())]
    const expected = before.map((cell, index) => {
      const [old, next] = [Number(cell["annually"]), Number(after[index]!["annually"])]
      const percent = Math.round(((next - old) / old) * 10_000) / 100
      return [cell["vehicle_price"], cell["vehicle_usage"], `${percent >= 0 ? "+" : ""}${percent.toFixed(2)}`]
    })
    const labels = await main
      .locator("svg text.cell-label")
      .evaluateAll((texts) =>
        texts.map((text) => [text.getAttribute("data-x"), text.getAttribute("data-y"), text.textContent])
      )
    expect(labels).toEqual(expected)
    // the proposal raises vejhjælp (Standard variant: private driving) and the godstransport loading, nothing else
    for (const [, usage, label] of labels)
      expect(label === "+0.00", `${usage}: ${label}`).toBe(usage === "godstransport_halv_omsaetning")

    await main.locator('rect[data-x="300000"][data-y="godstransport"]').hover()
    const oldAnnual = Number(
      before.find((cell) => cell["vehicle_price"] === "300000" && cell["vehicle_usage"] === "godstransport")![
        "annually"
      ]
    )
    const newAnnual = Number(
      after.find((cell) => cell["vehicle_price"] === "300000" && cell["vehicle_usage"] === "godstransport")!["annually"]
    )
    const detail = await main.locator(".cell-detail .cell-change").textContent()
    expect(detail!.replace(/\s/g, "")).toContain(`${oldAnnual}kr→${newAnnual}kra year`.replace(/\s/g, ""))
    expect(await main.locator(".cell-detail .side pre.worksheet-text").count()).toBe(2)
    await screenshot(page, "compare", true)
    await close()
  }, 90_000)
})

describe.skipIf(skipBrowser)("the compare view as `npx kasko workbench` starts it", () => {
  let browser: Browser
  let workbench: RunningWorkbench
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startReadmeWorkbench()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
  })

  it("opens on the shipped version against the example's proposal, and shows the cases that change", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    const main = page.locator("main")
    await page.goto(`${workbench.url}/#compare`)
    await main.locator(".changes[aria-busy=false] .diff-report").waitFor({ state: "attached" })
    expect(await main.locator('select[name="old-version"]').inputValue()).toBe("insurance-car-leasing/v1.json")
    expect(await main.locator('select[name="new-version"]').inputValue()).toBe(
      "insurance-car-leasing-v2-proposal.json (proposal)"
    )
    const summary = (await main.locator('[data-summary="diff"]').textContent())!
    expect(Number(/^(\d+) of 32 cases change$/.exec(summary)?.[1])).toBeGreaterThan(0)
    const diff = await runCli([
      "tariff",
      "diff",
      join(SHIPPED_TARIFFS, "insurance-car-leasing", "v1.json"),
      join(ROOT, "examples", "actuary-workbench", "tariffs", "insurance-car-leasing-v2-proposal.json"),
      "--cases",
      GOLDEN_FILE
    ])
    expect(summary).toBe(/(\d+ of \d+ cases change)/.exec(diff.stdout)![1])
    expect(problems).toEqual([])
    await close()
  }, 90_000)

  it("explains beside the case what makes it Standard or Extended, as the core's rule says", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    const main = page.locator("main")
    await page.goto(`${workbench.url}/#compare`)
    const rule = (await main.locator(".variant-note .variant-rule").textContent())!
    for (const [parameter, value] of Object.entries(Variant.firstVariantWhen("insurance-car-leasing")))
      expect(rule).toContain(`${parameter} is ${value}`)
    for (const vehicle_usage of ["godstransport", "privat_person_koersel"]) {
      await main.locator('select[name="vehicle_usage"]').selectOption(vehicle_usage)
      const parameters = Object.fromEntries(
        await Promise.all(
          Object.keys(Variant.firstVariantWhen("insurance-car-leasing")).map(
            async (name) => [name, await main.locator(`select[name="${name}"]`).inputValue()] as const
          )
        )
      )
      expect(await main.locator(".variant-verdict").getAttribute("data-variant")).toBe(
        Variant.variantOf("insurance-car-leasing", parameters)
      )
    }
    expect(problems).toEqual([])
    await close()
  }, 90_000)
})
