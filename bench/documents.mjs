// Documents section: what printing costs. A quote's document (QuotingService.getQuoteDocument: the quote found
// in the store, its document written by the core, printed as PDF by @kasko/documents) over 500 documents of
// different quotes after a warm-up, each timed alone: p50, p99 and max in ms against the 50 ms p99 budget
// (issue 31). Then the IPID: its first rendering of a tariff version (cold) and every later answer (kept), asked
// for the four product × variants in turn, as a public link checker or a crawler would.
//
// Then a flood (issue 31's review): the service over HTTP answering offers at a steady 500 a second while one
// partner asks for 100 quote documents a second, with no document limit and with the default
// KASKO_DOCUMENT_RATE_LIMIT_PER_MINUTE (60): the offers' p50 and p99 against offers alone, and what the flood got.
//
// Then a burst (issue 43's attack): sixty documents at once from one partner's fresh key — or from two partners'
// — and, 30 ms later, ten from another partner: what the other partner got, and how long it waited.
import { Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { PdfDocuments } from "@kasko/documents"
import { MemoryQuoteStore } from "@kasko/memory"
import { Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { get } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { benchPartner, kaskoAdmin, load, startServer, stopServer } from "./http.mjs"

const DOCUMENTS = Number(process.env.KASKO_BENCH_DOCUMENTS ?? 500)
const WARM_UP = 50
const BUDGET_P99_MS = 50
const IPID_ANSWERS = 200
const IPIDS = ["insurance-car-leasing", "insurance-car-standalone"].flatMap((product) =>
  ["standard", "extended"].map((variant) => [product, variant])
)

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]

/** Wall time of one run, and the CPU time the process spent meanwhile (a wait for the CPU shows as wall, not CPU). */
const timed = async (run) => {
  const cpu = process.cpuUsage()
  const started = process.hrtime.bigint()
  const value = await run()
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  const spent = process.cpuUsage(cpu)
  return { value, ms, cpuMs: (spent.user + spent.system) / 1000 }
}

/** Quote requests of every shape: both products, both variants, both features, monthly or yearly, 1–3 parties. */
const requestOf = (index) => {
  const extended = index % 2 === 1
  const parameters = Examples.standardParameters({
    payments_per_year: index % 3 === 0 ? "12" : "1",
    vehicle_price: String(150_000 + (index % 50) * 10_000),
    ...(extended ? { policy_holder: "organization", vehicle_user: "organization", vehicle_usage: "godstransport" } : {})
  })
  return Examples.quoteRequest(
    parameters,
    index % 4 < 2 ? "insurance-car-leasing" : "insurance-car-standalone",
    index % 5 === 0 ? "premium" : "standard"
  )
}

export const runDocumentsBench = async () => {
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped, PdfDocuments.layer())
  )
  try {
    const quoteIds = []
    for (let index = 0; index < DOCUMENTS + WARM_UP; index++)
      quoteIds.push((await runtime.runPromise(QuotingService.createQuote("bench", requestOf(index)))).quote_id)
    const times = []
    const cpuTimes = []
    let bytes = 0
    for (const [index, quoteId] of quoteIds.entries()) {
      const { value, ms, cpuMs } = await timed(() =>
        runtime.runPromise(QuotingService.getQuoteDocument("bench", quoteId))
      )
      if (index < WARM_UP) continue
      times.push(ms)
      cpuTimes.push(cpuMs)
      bytes += value.bytes.length
    }
    times.sort((a, b) => a - b)
    cpuTimes.sort((a, b) => a - b)
    const p99 = percentile(times, 0.99)

    const ipidRuntime = ManagedRuntime.make(Layer.merge(TariffBook.shipped, PdfDocuments.layer()))
    const ipid = (product, variant) => ipidRuntime.runPromise(QuotingService.getProductInformation(product, variant))
    const cold = await timed(() => ipid("insurance-car-leasing", "standard"))
    for (const [product, variant] of IPIDS) await ipid(product, variant)
    const kept = []
    const keptCpu = []
    for (let round = 0; round < IPID_ANSWERS; round++) {
      const [product, variant] = IPIDS[round % IPIDS.length]
      const answer = await timed(() => ipid(product, variant))
      kept.push(answer.ms)
      keptCpu.push(answer.cpuMs)
    }
    kept.sort((a, b) => a - b)
    keptCpu.sort((a, b) => a - b)
    await ipidRuntime.dispose()
    return [
      {
        document: `quote document, ${times.length} quotes (after ${WARM_UP} warm-up)`,
        p50_ms: percentile(times, 0.5),
        p99_ms: p99,
        max_ms: times.at(-1),
        p99_vs_budget: p99 / BUDGET_P99_MS,
        cpu_p50_ms: percentile(cpuTimes, 0.5),
        cpu_p99_ms: percentile(cpuTimes, 0.99),
        kb_each: bytes / times.length / 1024
      },
      {
        document: "IPID, first answer of a tariff version (written and rendered)",
        p50_ms: cold.ms,
        p99_ms: cold.ms,
        max_ms: cold.ms,
        p99_vs_budget: cold.ms / BUDGET_P99_MS,
        cpu_p50_ms: cold.cpuMs,
        cpu_p99_ms: cold.cpuMs,
        kb_each: cold.value.document.bytes.length / 1024
      },
      {
        document: `IPID, every later answer (kept), ${IPID_ANSWERS} answers, the 4 product × variants in turn`,
        p50_ms: percentile(kept, 0.5),
        p99_ms: percentile(kept, 0.99),
        max_ms: kept.at(-1),
        p99_vs_budget: percentile(kept, 0.99) / BUDGET_P99_MS,
        cpu_p50_ms: percentile(keptCpu, 0.5),
        cpu_p99_ms: percentile(keptCpu, 0.99),
        kb_each: cold.value.document.bytes.length / 1024
      }
    ]
  } finally {
    await runtime.dispose()
  }
}

const FLOOD_SECONDS = Number(process.env.KASKO_BENCH_SECONDS ?? 10)
const OFFERS_PER_SECOND = 500
const DOCUMENTS_PER_SECOND = 100

/** The status codes of a load's answers, as counts. */
const statusCounts = (result) =>
  Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, Number(count)]))

/** Offers at a steady rate, alone or beside a partner's flood of quote documents, on a service with `documentLimit`. */
const floodRound = async (label, documentLimit, flood) => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-documents-bench-"))
  const previous = process.env.KASKO_BENCH_SERVICE_ENV
  process.env.KASKO_BENCH_SERVICE_ENV = JSON.stringify({ KASKO_DOCUMENT_RATE_LIMIT_PER_MINUTE: String(documentLimit) })
  const server = await startServer("kasko", directory).finally(() => {
    if (previous === undefined) delete process.env.KASKO_BENCH_SERVICE_ENV
    else process.env.KASKO_BENCH_SERVICE_ENV = previous
  })
  try {
    const headers = await benchPartner(directory)
    const created = await fetch(`${server.url}/insurance/car/quotes`, {
      method: "POST",
      headers,
      body: JSON.stringify(Examples.quoteRequest())
    })
    const quoteId = (await created.json()).quote_id
    const offerBody = JSON.stringify(Examples.offerRequest())
    const documentUrl = `${server.url}/insurance/car/quotes/${quoteId}/document`
    // warm: offers for 2 s and a few documents (pdfkit parses its fonts on the first), so no round measures a start
    await load({ url: `${server.url}/insurance/car/offers`, method: "POST", headers, body: offerBody }, 2)
    for (let document = 0; document < 5; document++) await (await fetch(documentUrl, { headers })).arrayBuffer()
    // with a limit, the partner has had this minute's documents already: the measurement is its steady state, in
    // which each minute's first ones are printed as fast as it asks (60 of them: 0.6 s of the unlimited flood)
    if (flood && documentLimit < 10_000_000) {
      let status = 200
      while (status === 200) {
        const answer = await fetch(documentUrl, { headers })
        await answer.arrayBuffer()
        status = answer.status
      }
    }
    const [offers, documents] = await Promise.all([
      load(
        {
          url: `${server.url}/insurance/car/offers`,
          method: "POST",
          headers,
          body: offerBody,
          connections: 8,
          overallRate: OFFERS_PER_SECOND
        },
        FLOOD_SECONDS
      ),
      flood
        ? load(
            {
              url: documentUrl,
              headers,
              connections: 4,
              overallRate: DOCUMENTS_PER_SECOND
            },
            FLOOD_SECONDS
          )
        : undefined
    ])
    const documentStatuses = documents === undefined ? {} : statusCounts(documents)
    return {
      round: label,
      offers_per_second: offers.requests.average,
      offers_p50_ms: offers.latency.p50,
      offers_p99_ms: offers.latency.p99,
      offers_not_200: offers.non2xx,
      documents_printed: documentStatuses["200"] ?? 0,
      documents_refused_429: documentStatuses["429"] ?? 0,
      documents_refused_503: documentStatuses["503"] ?? 0
    }
  } finally {
    await stopServer(server)
    rmSync(directory, { recursive: true, force: true })
  }
}

export const runDocumentFloodBench = async () => {
  const alone = await floodRound("offers alone", 60, false)
  const unlimited = await floodRound(`+ ${DOCUMENTS_PER_SECOND} documents/s, no document limit`, 10_000_000, true)
  const limited = await floodRound(
    `+ ${DOCUMENTS_PER_SECOND} documents/s, document limit 60/min (this minute's 60 printed)`,
    60,
    true
  )
  return [alone, unlimited, limited].map((row) => ({
    ...row,
    p99_vs_alone: row.offers_p99_ms / alone.offers_p99_ms
  }))
}

/** A partner of its own for the burst, with a token and a subscription key. */
const burstPartner = async (directory, partnerId) => {
  const { subscription_key } = JSON.parse(
    await kaskoAdmin(directory, "partners", "add", "--id", partnerId, "--name", `${partnerId} A/S`, "--json")
  )
  const token = (
    await kaskoAdmin(directory, "tokens", "issue", "--partner", partnerId, "--scopes", "quotes:create quotes:read")
  ).trim()
  return { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": subscription_key }
}

/** Sixty documents at once from each of `bursting` partners, ten from another 30 ms later: what the other got. */
const burstRound = async (bursting) => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-burst-bench-"))
  const server = await startServer("kasko", directory)
  try {
    const quoteOf = async (headers) => {
      const created = await fetch(`${server.url}/insurance/car/quotes`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(Examples.quoteRequest())
      })
      return `${server.url}/insurance/car/quotes/${(await created.json()).quote_id}/document`
    }
    const bursts = []
    for (let index = 0; index < bursting; index++) {
      const headers = await burstPartner(directory, `burst-${index}`)
      bursts.push({ headers, url: await quoteOf(headers) })
    }
    const otherHeaders = await burstPartner(directory, "other")
    const otherUrl = await quoteOf(otherHeaders)
    // pdfkit parses its fonts with the first document
    await (await fetch(otherUrl, { headers: otherHeaders })).arrayBuffer()
    // each request on a connection of its own, as sixty clients would send them: fetch's pool would queue the
    // other partner's requests behind the burst's in this process, not in the service
    const statusOf = (url, headers) =>
      new Promise((resolve, reject) =>
        get(url, { headers, agent: false }, (answer) => {
          answer.resume()
          answer.on("end", () => resolve(answer.statusCode))
        }).on("error", reject)
      )
    const burst = bursts.flatMap(({ url, headers }) => Array.from({ length: 60 }, () => statusOf(url, headers)))
    await new Promise((resolve) => setTimeout(resolve, 30))
    const other = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const started = process.hrtime.bigint()
        const status = await statusOf(otherUrl, otherHeaders)
        return { status, ms: Number(process.hrtime.bigint() - started) / 1e6 }
      })
    )
    const burstStatuses = await Promise.all(burst)
    const sorted = other.map((answer) => answer.ms).sort((a, b) => a - b)
    const count = (statuses, status) => statuses.filter((value) => value === status).length
    return {
      burst: bursting === 0 ? "none (the other partner alone)" : `${bursting} partner${bursting === 1 ? "" : "s"} × 60`,
      burst_printed: count(burstStatuses, 200),
      burst_refused_429: count(burstStatuses, 429),
      burst_refused_503: count(burstStatuses, 503),
      other_printed: count(
        other.map((answer) => answer.status),
        200
      ),
      other_refused: other.filter((answer) => answer.status !== 200).length,
      other_p50_ms: percentile(sorted, 0.5),
      other_max_ms: sorted.at(-1)
    }
  } finally {
    await stopServer(server)
    rmSync(directory, { recursive: true, force: true })
  }
}

export const runDocumentBurstBench = async () => [await burstRound(0), await burstRound(1), await burstRound(2)]

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "burst")
  console.table(await runDocumentBurstBench())
