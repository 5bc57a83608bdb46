// Observability section: what metrics and traces cost. The core: createOffer (Effect, runSync)
// with a tracer provided, as the service runs it with metrics or traces on — the core's kasko.pricing
// span made and ended on every offer — against none provided (the core then makes no span).
// Over HTTP: POST /insurance/car/offers on three services alike but for observability — none,
// metrics on (KASKO_METRICS_PORT), traces exported (OTEL_EXPORTER_OTLP_ENDPOINT, to a local
// collector answering 204) — in interleaved rounds, medians.
import { Examples, QuotingService, TariffBook } from "@kasko/core"
import { Layer, ManagedRuntime, Tracer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchPartner, measure, median, medianOf, startServer, stopServer } from "./http.mjs"

const ROUNDS = Number(process.env.KASKO_BENCH_ROUNDS ?? 3)

const offersPerSecond = (runtime, seconds) => {
  const request = Examples.offerRequest()
  for (let index = 0; index < 5_000; index++) runtime.runSync(QuotingService.createOffer(request))
  let count = 0
  const started = process.hrtime.bigint()
  const budget = BigInt(Math.round(seconds * 1e9))
  while (process.hrtime.bigint() - started < budget) {
    for (let batch = 0; batch < 256; batch++) runtime.runSync(QuotingService.createOffer(request))
    count += 256
  }
  return count / (Number(process.hrtime.bigint() - started) / 1e9)
}

const coreRows = async () => {
  const withSpans = ManagedRuntime.make(
    Layer.merge(TariffBook.shipped, Layer.succeed(Tracer.Tracer, Tracer.nativeTracer))
  )
  const withoutSpans = ManagedRuntime.make(TariffBook.shipped)
  try {
    const runs = { withSpans: [], withoutSpans: [] }
    for (let round = 0; round < 5; round++) {
      runs.withoutSpans.push(offersPerSecond(withoutSpans, 1))
      runs.withSpans.push(offersPerSecond(withSpans, 1))
    }
    const [spans, none] = [median(runs.withSpans), median(runs.withoutSpans)]
    return [
      { core: "createOffer, no tracer provided (no span)", offers_per_second: none, vs_no_span: 1 },
      {
        core: "createOffer, a tracer provided (kasko.pricing span, as with metrics or traces on)",
        offers_per_second: spans,
        vs_no_span: spans / none
      }
    ]
  } finally {
    await withSpans.dispose()
    await withoutSpans.dispose()
  }
}

/** Starts the bench's kasko service with extra environment variables. */
const startKasko = async (directory, environment) => {
  process.env.KASKO_BENCH_SERVICE_ENV = JSON.stringify(environment)
  try {
    return await startServer("kasko", directory)
  } finally {
    delete process.env.KASKO_BENCH_SERVICE_ENV
  }
}

const httpRows = async () => {
  const directories = {}
  const servers = []
  try {
    const collector = await startServer("receiver")
    servers.push(collector)
    const sides = {
      none: {},
      metrics: { KASKO_METRICS_PORT: "0" },
      traces: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }
    }
    const targets = {}
    for (const [side, environment] of Object.entries(sides)) {
      directories[side] = mkdtempSync(join(tmpdir(), `kasko-observability-${side}-`))
      const headers = await benchPartner(directories[side], "offers:create")
      const service = await startKasko(directories[side], environment)
      servers.push(service)
      targets[side] = {
        url: `${service.url}/insurance/car/offers`,
        method: "POST",
        body: JSON.stringify(Examples.offerRequest()),
        headers
      }
    }
    const runs = Object.fromEntries(Object.keys(sides).map((side) => [side, []]))
    for (let round = 0; round < ROUNDS; round++)
      for (const [side, options] of Object.entries(targets))
        runs[side].push(await measure(`observability ${side}`, options))
    const medians = Object.fromEntries(Object.entries(runs).map(([side, sideRuns]) => [side, medianOf(sideRuns)]))
    return Object.entries(medians).map(([side, figures]) => ({
      service: `POST /insurance/car/offers, ${side === "none" ? "no metrics, no traces" : side === "metrics" ? "metrics on" : "traces exported"}`,
      ...figures,
      vs_none: figures.requests_per_second / medians.none.requests_per_second
    }))
  } finally {
    await Promise.all(servers.map(stopServer))
    for (const directory of Object.values(directories)) rmSync(directory, { recursive: true, force: true })
  }
}

export const runObservabilityBench = async () => ({ core: await coreRows(), http: await httpRows() })
