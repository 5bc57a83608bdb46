/**
 * /docs in a real browser: headless Chromium (Debian's package) driven by
 * playwright-core loads the page from the running server and finds the five
 * operations. Skipped, with the reason printed, only where no Chromium is
 * installed outside CI; in CI a missing browser fails the test.
 */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestService, type TestService } from "./support.js"

const CHROMIUM = "/usr/bin/chromium"
const available = existsSync(CHROMIUM)
const inCi = process.env["CI"] === "true"
if (!available && !inCi)
  console.warn(`skipping the /docs browser test: ${CHROMIUM} is not installed (apt-get install chromium)`)

describe.skipIf(!available && !inCi)("the API reference page", () => {
  let server: TestService
  let browser: Browser
  beforeAll(async () => {
    server = await startTestService()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync"
      ]
    })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("lists the five operations, served without any CDN", async () => {
    const page = await browser.newPage()
    const foreignRequests: Array<string> = []
    page.on("request", (request) => {
      if (!request.url().startsWith(server.url)) foreignRequests.push(request.url())
    })
    await page.goto(`${server.url}/docs`)
    await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 })
    const operations = await page.$$eval(".opblock", (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector(".opblock-summary-method")?.textContent?.trim()
        const path =
          block.querySelector(".opblock-summary-path")?.getAttribute("data-path") ??
          block.querySelector(".opblock-summary-path")?.textContent?.trim()
        return `${method} ${path}`
      })
    )
    expect(operations).toEqual(
      expect.arrayContaining([
        "GET /products/{product_name}",
        "POST /insurance/car/offers",
        "POST /insurance/car/quotes",
        "GET /insurance/car/quotes/{quote_id}",
        "POST /insurance/car/quotes/{quote_id}/activation"
      ])
    )
    expect(foreignRequests).toEqual([])
  }, 60_000)
})
