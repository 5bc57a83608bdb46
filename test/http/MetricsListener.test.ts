/**
 * The metrics port is the operator's: bound to 127.0.0.1 by default even when the partner API listens on
 * every interface, and however many scrapers loop against it, with 100 000 webhook deliveries pending (the
 * backlog gauges read the outbox), the partner API answers; how fast is `pnpm bench`'s (bench/fairness.mjs).
 */
import { type AddressInfo, connect, createServer } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { addPartner } from "./credentials.js"
import { startServiceProcess, temporaryDirectory } from "../support.js"
import { seedBacklog } from "../webhooks/Backlog.js"

const directory = temporaryDirectory("kasko-metrics-listener-")
afterAll(() => directory.remove())

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const client = connect({ host, port })
    client.once("connect", () => {
      client.destroy()
      resolve(true)
    })
    client.once("error", () => resolve(false))
  })

describe("the metrics listener", () => {
  it("binds 127.0.0.1 by default, though the partner API listens on every interface", async () => {
    const metricsPort = await freePort()
    const service = await startServiceProcess({
      KASKO_DATA_DIR: `${directory.path}/binding`,
      HOST: "0.0.0.0",
      KASKO_METRICS_PORT: String(metricsPort)
    })
    try {
      const apiPort = Number(new URL(service.url).port)
      expect(await accepts("127.0.0.2", apiPort)).toBe(true)
      expect(await accepts("127.0.0.1", metricsPort)).toBe(true)
      expect(await accepts("127.0.0.2", metricsPort)).toBe(false)
    } finally {
      await service.stop()
    }
  })

  // how fast /health answers meanwhile is measured by `pnpm bench` (bench/fairness.mjs, budgets p50 ≤ 10 ms, p99 ≤ 50 ms)
  it("answers /health while eight scrapers loop against it, each scrape showing the 100 000 deliveries pending", async () => {
    const dataDirectory = `${directory.path}/scrapers`
    await addPartner(dataDirectory, "flooder")
    seedBacklog({
      dataDirectory,
      partnerId: "flooder",
      urls: Array.from({ length: 20 }, () => "https://hooks.flooder.example/kasko"),
      events: 5_000,
      fannedOut: true,
      // due in a day: the dispatcher leaves them alone, the backlog gauges count them
      occurredAt: Date.now() + 86_400_000
    })
    const metricsPort = await freePort()
    const service = await startServiceProcess({
      KASKO_DATA_DIR: dataDirectory,
      KASKO_METRICS_PORT: String(metricsPort)
    })
    try {
      // counted, not timed: the scrapers loop until /health has been asked as often as they scraped
      let scraping = true
      let scrapes = 0
      const texts = new Set<string>()
      const scrapers = Array.from({ length: 8 }, async () => {
        while (scraping) {
          const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
          const text = await answer.text()
          texts.add(`${answer.status} ${/^kasko_webhook_pending_deliveries .*$/m.exec(text)?.[0]}`)
          scrapes++
        }
      })
      const statuses = new Set<number>()
      for (let request = 0; request < 50 || scrapes < 50; request++) {
        const answer = await fetch(`${service.url}/health`)
        await answer.text()
        statuses.add(answer.status)
      }
      scraping = false
      await Promise.all(scrapers)
      expect([...statuses]).toEqual([200])
      expect([...texts]).toEqual(["200 kasko_webhook_pending_deliveries 100000"])
    } finally {
      await service.stop()
    }
  })
})
