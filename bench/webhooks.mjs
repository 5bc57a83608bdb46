// Webhooks section: quote creation (POST /insurance/car/quotes, SQLite FULL) on two services
// alike but for webhooks — one whose partner has no subscription (its events are written to
// the outbox and go nowhere), one whose partner subscribed an endpoint that takes every event
// (the dispatcher delivers while the load runs). Rounds interleave the two; figures are medians.
import { Examples } from "@kasko/core"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchPartner, kaskoAdmin, load, measure, medianOf, startServer, stopServer } from "./http.mjs"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)

export const runWebhooksBench = async () => {
  const off = mkdtempSync(join(tmpdir(), "kasko-webhooks-off-"))
  const on = mkdtempSync(join(tmpdir(), "kasko-webhooks-on-"))
  const servers = []
  try {
    const receiver = await startServer("receiver")
    servers.push(receiver)
    const headers = { off: await benchPartner(off, "quotes:create"), on: await benchPartner(on, "quotes:create") }
    process.env.KASKO_WEBHOOKS_ALLOW_INSECURE = "true"
    await kaskoAdmin(on, "webhooks", "add", "--partner", "bench-partner", "--url", `${receiver.url}/hooks`)
    delete process.env.KASKO_WEBHOOKS_ALLOW_INSECURE
    const services = { off: await startServer("kasko", off), on: await startServer("kasko", on) }
    servers.push(services.off, services.on)
    const body = JSON.stringify(Examples.quoteRequest())
    const sides = Object.fromEntries(
      Object.entries(services).map(([side, service]) => [
        side,
        { url: `${service.url}/insurance/car/quotes`, method: "POST", body, headers: headers[side] }
      ])
    )
    for (const options of Object.values(sides)) await load(options, 1)
    const runs = { off: [], on: [] }
    for (let round = 0; round < ROUNDS; round++)
      for (const [side, options] of Object.entries(sides)) runs[side].push(await measure(`webhooks ${side}`, options))
    // what the dispatcher delivered while the load ran (it goes on delivering the rest)
    const delivered = Number(await (await fetch(`${receiver.url}/count`)).text())
    const [offMedian, onMedian] = [medianOf(runs.off), medianOf(runs.on)]
    return [
      { service: "POST /insurance/car/quotes, no webhook subscription", ...offMedian, vs_webhooks_off: 1 },
      {
        service: "POST /insurance/car/quotes, every event delivered to an endpoint",
        ...onMedian,
        vs_webhooks_off: onMedian.requests_per_second / offMedian.requests_per_second,
        p99_vs_webhooks_off: onMedian.p99_ms / offMedian.p99_ms,
        delivered_during_the_load: delivered
      }
    ]
  } finally {
    await Promise.all(servers.map(stopServer))
    rmSync(off, { recursive: true, force: true })
    rmSync(on, { recursive: true, force: true })
  }
}
