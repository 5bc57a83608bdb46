/**
 * The impact view in Chromium when a web worker dies without a word — as
 * when the browser kills one for want of memory, which fires no error event:
 * the page's pool hears nothing from it for its silence limit (a minute, run
 * on Playwright's clock), stops its workers and shows why the test failed and
 * what to do, rather than a progress bar that never ends.
 */
import { basename } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  IMPACT_BOOK,
  launchChromium,
  openPage,
  REBALANCE,
  REBALANCE_KEY,
  skipBrowser,
  startTestWorkbench,
  type TestWorkbench
} from "./support.js"

describe.skipIf(skipBrowser)("the impact view, when a web worker dies without a word", () => {
  let browser: Browser
  let workbench: TestWorkbench
  beforeAll(async () => {
    browser = await launchChromium()
    workbench = await startTestWorkbench({ [REBALANCE_KEY]: REBALANCE })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await workbench?.stop()
  })

  it("fails the test after the silence limit, stops the workers and says what to do", async () => {
    const { page, problems, close } = await openPage(browser, workbench)
    // the page's timers on a clock the test moves: its time flows as usual until then
    await page.clock.install()
    // the first web worker the page starts is terminated (no error event, as the browser's killing it fires
    // none) when it is sent its first chunk: the chunks sent to it after are lost too
    await page.addInitScript(() => {
      const scope = globalThis as unknown as {
        Worker: new (
          url: string,
          options?: unknown
        ) => {
          postMessage(message: unknown, transfer?: unknown): void
          terminate(): void
        }
        impactWorkers: { started: number; killed: number; terminated: Set<unknown> }
      }
      const Native = scope.Worker
      const workers = { started: 0, killed: 0, terminated: new Set<unknown>() }
      scope.impactWorkers = workers
      scope.Worker = class extends Native {
        private readonly doomed = workers.started++ === 0
        override postMessage(message: unknown, transfer?: unknown) {
          if (!this.doomed || (message as { type?: string } | null)?.type !== "text")
            super.postMessage(message, transfer)
          else if (workers.killed === 0) {
            workers.killed++
            super.terminate()
          }
        }
        override terminate() {
          workers.terminated.add(this)
          super.terminate()
        }
      }
    })
    const workers = () =>
      page.evaluate(() => {
        const { started, killed, terminated } = (
          globalThis as unknown as { impactWorkers: { started: number; killed: number; terminated: Set<unknown> } }
        ).impactWorkers
        return { started, killed, terminated: terminated.size }
      })
    await page.goto(`${workbench.url}/#impact`)
    const main = page.locator("main")
    await main.locator('input[name="portfolio"]').waitFor()
    await main.locator('input[name="portfolio"]').setInputFiles(IMPACT_BOOK)

    // the doomed worker is gone, the others have priced the rest of the book: the pass waits for the lost chunks
    await main.locator(".impact-status", { hasText: "100 % of" }).waitFor({ timeout: 30_000 })
    await page.waitForTimeout(1_000)
    expect(await workers()).toMatchObject({ killed: 1, terminated: 0 })
    expect((await workers()).started).toBeGreaterThanOrEqual(2)
    expect(await main.locator(".impact-status").getAttribute("data-state")).toBe("running")

    // a little less than the limit: still waiting; past it (ten checks a limit, the eleventh fails): failed
    await page.clock.runFor(50_000)
    expect(await main.locator(".impact-status").getAttribute("data-state")).toBe("running")
    await page.clock.runFor(25_000)
    await main.locator('.impact-status[data-state="failed"]').waitFor({ timeout: 10_000 })
    expect(await main.locator('.problem[role="alert"]').textContent()).toBe(
      `The impact test of ${basename(IMPACT_BOOK)} could not run: a web worker stopped answering for 60 s; the browser may have stopped it for want of memory. Close other tabs and run the test again, or test a smaller file.`
    )
    expect(await main.locator(".impact-results").textContent()).toBe("")
    expect(await main.locator('button[name="stop"]').isDisabled()).toBe(true)
    // every worker stopped by the pool
    const { started, terminated } = await workers()
    expect(terminated).toBe(started)
    expect(problems).toEqual([])
    await close()
  }, 120_000)
})
