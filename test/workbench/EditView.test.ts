/**
 * Editing a tariff in Chromium: completion and validation from the tariff's
 * Schema in CodeMirror, the linter and the golden tables following the edit
 * (an edit that breaks a golden row shows the failure), the draft priced in
 * the other views, and saving a new version file — never over a version
 * that has taken effect.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  LEASING_V1,
  launchChromium,
  openPage,
  screenshot,
  showView,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

/** v1 with a change, as the editor would hold it. */
const leasingWith = (
  change: (document: {
    version: string
    effective_from: string
    currency: string
    rules: Array<{ name: string; event: { params: { premium?: { amount?: number } } } }>
  }) => void
) => {
  const document = JSON.parse(LEASING_V1)
  change(document)
  return JSON.stringify(document, null, 2)
}

/** Replaces the editor's whole text, as a paste would. */
const replaceText = async (page: Page, text: string) => {
  await page.locator("main .cm-content").click()
  await page.keyboard.press("Control+A")
  await page.keyboard.insertText(text)
}

const openEditor = async (browser: Browser, workbench: TestWorkbench) => {
  const opened = await openPage(browser, workbench)
  await opened.page.goto(`${workbench.url}/#edit`)
  await opened.page.locator("main .cm-content").waitFor()
  await opened.page.locator('main [data-summary="golden"]').waitFor()
  return opened
}

describe.skipIf(skipBrowser)("the edit view", () => {
  let browser: Browser
  let workbench: TestWorkbench
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
  })

  it("shows the failure when an edit breaks a golden row, with expected vs actual and the worksheet", async () => {
    const { page, problems, foreignRequests, close } = await openEditor(browser, workbench)
    const main = page.locator("main")
    expect(await main.locator('[data-summary="golden"]').textContent()).toMatch(/^✓ (\d+) of \1 golden rows pass$/)
    // vejhjælp 400 → 401 kr: every Standard-variant leasing row now costs a krone more
    await replaceText(
      page,
      leasingWith((document) => {
        document.rules.find((rule) => rule.name === "standard: vejhjælp")!.event.params.premium!.amount = 401
      })
    )
    await main.locator('[data-summary="golden"]', { hasText: "fail" }).waitFor()
    const failure = main.locator("tr.failed", { hasText: "leasing standard band 299999" })
    expect(await failure.locator(".verdict").textContent()).toBe("✗ fails")
    const details = failure.locator("xpath=following-sibling::tr[1]")
    expect(await details.locator('tr[data-item="premium vejhjælp"] td').allTextContents()).toEqual([
      "premium vejhjælp",
      "400.00",
      "401.00"
    ])
    expect(await details.locator('tr[data-item="annually"] td').allTextContents()).toEqual(["annually", "9622", "9623"])
    expect(await details.locator(".worksheet-heading").textContent()).toContain("insurance-car-leasing · tariff v1")
    expect(await main.locator(".draft-status").textContent()).toMatch(/^Edited, not saved\./)
    await screenshot(page, "edit")
    expect(problems).toEqual([])
    expect(foreignRequests).toEqual([])
    await close()
  }, 90_000)

  it("completes from the tariff's Schema", async () => {
    const { page, close } = await openEditor(browser, workbench)
    await replaceText(page, '{\n  "currency": ')
    await page.keyboard.press("Control+Space")
    const options = page.locator(".cm-tooltip-autocomplete li")
    await options.first().waitFor()
    expect(await options.allTextContents()).toEqual(['"DKK"allowed value'])
    // CodeMirror ignores keys for its interactionDelay (75 ms) after the list opens, so that a list popping up mid-typing takes no stray Enter
    await page.waitForTimeout(150)
    await page.keyboard.press("Enter")
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is what the actuary sees, line breaks between CodeMirror's line elements included
    expect(await page.locator("main .cm-content").innerText()).toBe('{\n  "currency": "DKK"')

    await replaceText(page, '{\n  "rules": [{"event": {"type": "set_limit", "params": {')
    await page.keyboard.press("Control+Space")
    await options.first().waitFor()
    expect((await options.allTextContents()).sort()).toEqual(['"amount"number', '"coverage"string'])
    await close()
  }, 60_000)

  it("underlines what the tariff's Schema refuses, with its message", async () => {
    const { page, close } = await openEditor(browser, workbench)
    await replaceText(
      page,
      leasingWith((document) => Object.assign(document, { currency: "EUR" }))
    )
    // back to the top, where the wrong currency is: the editor draws only the lines in view
    await page.keyboard.press("Control+Home")
    await page.locator("main .cm-lintRange-error", { hasText: "EUR" }).waitFor()
    await page.keyboard.press("Control+Shift+M")
    const panel = page.locator(".cm-panel-lint li")
    await panel.first().waitFor()
    expect(await panel.allTextContents()).toEqual(['currency: Expected "DKK", actual "EUR"'])
    expect(await page.locator("main .draft-status").textContent()).toMatch(/It does not load: .*currency/s)
    await close()
  }, 60_000)

  it("offers the draft to the other views, priced like any version", async () => {
    const { page, close } = await openEditor(browser, workbench)
    await replaceText(
      page,
      leasingWith((document) => Object.assign(document, { version: "v1-with-my-edit" }))
    )
    await page.locator("main .draft-status", { hasText: "It loads as" }).waitFor()
    await showView(page, "price")
    const tariff = page.locator('main select[name="tariff"]')
    expect(await tariff.locator("option").allTextContents()).toContain(
      "draft, unsaved: insurance-car-leasing v1-with-my-edit (from 2025-01-01)"
    )
    await tariff.selectOption("(draft)")
    expect(await page.locator("main .worksheet-heading").textContent()).toContain("tariff v1-with-my-edit")
    await close()
  }, 60_000)

  it("saves a new version file, and never overwrites a version that has taken effect", async () => {
    const { page, close } = await openEditor(browser, workbench)
    const main = page.locator("main")
    const v2 = leasingWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
    await replaceText(page, v2)
    await main.locator("button", { hasText: "Save as a new version" }).click()
    await main.locator(".save-message", { hasText: "Saved as" }).waitFor()
    expect(await main.locator(".save-message").textContent()).toBe(
      `Saved as insurance-car-leasing/v2.json in ${workbench.directory}.`
    )
    expect(readFileSync(join(workbench.directory, "insurance-car-leasing", "v2.json"), "utf8")).toBe(`${v2}\n`)
    expect(await main.locator('select[name="open-version"] option').allTextContents()).toContain(
      "insurance-car-leasing v2 (from 2027-01-01)"
    )

    await main.locator('select[name="open-version"]').selectOption("insurance-car-leasing/v1.json")
    await replaceText(
      page,
      leasingWith((document) => Object.assign(document, { currency: "DKK", effective_from: "2025-01-01" })).replace(
        '"monthly_surcharge_percent": 5',
        '"monthly_surcharge_percent": 6'
      )
    )
    await main.locator("button", { hasText: "Save as a new version" }).click()
    const refusal = main.locator('.save-message[role="alert"]')
    await refusal.waitFor()
    expect(await refusal.textContent()).toMatch(
      /^Not saved: insurance-car-leasing\/v1\.json took effect on 2025-01-01, on or before today \(2026-03-02\): a version that has taken effect is never overwritten/
    )
    expect(readFileSync(join(workbench.directory, "insurance-car-leasing", "v1.json"), "utf8")).toBe(LEASING_V1)
    expect(existsSync(join(workbench.directory, "insurance-car-leasing", "v1.json.saving"))).toBe(false)
    await close()
  }, 60_000)
})
