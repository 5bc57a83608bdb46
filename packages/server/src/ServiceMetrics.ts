/**
 * What the service counts and times, in Prometheus's terms (prom-client): one
 * registry per running service, read by the metrics listener. Names follow
 * Prometheus conventions: `_total` counters, `_seconds` durations, base units.
 */
import type { EventOutbox } from "@kasko/core"
import type { Sandbox } from "@kasko/core/administration"
import { documentedStatuses, OPERATIONS, type RequestObserver } from "@kasko/express"
import { TOOL_NAMES, type ToolCallObserver, type ToolOutcome } from "@kasko/mcp"
import type { PostgresStores } from "@kasko/postgres"
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"

// request and store durations: from a fraction of a millisecond (a cached read) to the 10 s request budget
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
// pricing is microseconds: compiled tariffs, no I/O
const PRICING_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.01]
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256]
// webhook lag: from commit to the endpoint's 2xx, under a second normally, up to the 24 h retry window
const LAG_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3_600, 86_400]

/** A webhook attempt's outcome, as `kasko_webhook_attempts_total` labels it. */
const WEBHOOK_OUTCOMES = ["delivered", "retry", "dead_lettered"] as const
type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number]

/** An MCP tool call's outcome, as `kasko_mcp_tool_calls_total` labels it. */
const TOOL_OUTCOMES = ["ok", "refused", "failed"] as const satisfies ReadonlyArray<ToolOutcome>

/**
 * The `environment` label of what a key's requests do: the environment of the key a request was authenticated with
 * (`production`, or a partner's `sandbox`), or `none` for a request that was not (a public operation, or credentials
 * refused). Three values whatever the partners and keys: the label never grows with them.
 */
const ENVIRONMENTS = ["production", "sandbox"] as const satisfies ReadonlyArray<Sandbox.Environment>
type EnvironmentLabel = Sandbox.Environment | "none"

// Gauges prom-client's default metrics name `_total`, which `promtool check metrics` refuses (a `_total` is a
// counter's): each is the sum of its namesake without the suffix, by type (`sum(nodejs_active_handles)`).
const MISNAMED_DEFAULT_GAUGES = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total"
]

/**
 * The outbox's backlog as a scrape reads it: the store's answer and the
 * service's time — or nothing, when the store could not answer in time (the
 * gauges then keep their last values: a scrape never waits on a busy pool).
 */
export type BacklogReading = () => Promise<
  { readonly backlog: EventOutbox.OutboxBacklog; readonly now: number } | undefined
>

/**
 * A reading a scrape waits for at most `millis` (then it has nothing, and the
 * gauges keep their last values), and never two at once: while the database
 * cannot answer — a pool exhausted, when the metrics are read most — scrapes
 * do not queue one read each behind the requests.
 */
export const boundedReading = <A>(
  read: () => Promise<A | undefined>,
  millis: number
): (() => Promise<A | undefined>) => {
  let inFlight: Promise<A | undefined> | undefined
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined
    })
    let timer: NodeJS.Timeout | undefined
    const giveUp = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, millis, undefined)
    })
    return Promise.race([inFlight, giveUp]).finally(() => clearTimeout(timer))
  }
}

/** `store`: which database the service runs on; only its own metrics are served (no pool gauges on SQLite, say). */
export const makeServiceMetrics = (store: "sqlite" | "postgres") => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  for (const name of MISNAMED_DEFAULT_GAUGES) registry.removeSingleMetric(name)
  const registers = [registry]
  const sqliteRegisters = store === "sqlite" ? registers : []
  const postgresRegisters = store === "postgres" ? registers : []
  let readBacklog: BacklogReading | undefined
  let readPool: (() => PostgresStores.PoolState) | undefined
  const metrics = {
    registry,
    // Registered first, so collected first: a scrape collects every gauge at once, and the backlog's read below
    // queues for a connection, which the pool would count as waiting — the scrape must not count itself.
    poolConnections: new Gauge({
      name: "kasko_postgres_pool_connections",
      help: "The PostgreSQL pool's connections, by state: in_use (checked out) or idle",
      labelNames: ["state"],
      registers: postgresRegisters,
      collect() {
        if (readPool === undefined) return
        const pool = readPool()
        this.set({ state: "in_use" }, pool.total - pool.idle)
        this.set({ state: "idle" }, pool.idle)
      }
    }),
    poolWaiting: new Gauge({
      name: "kasko_postgres_pool_waiting",
      help: "Queries waiting for a PostgreSQL connection from the pool",
      registers: postgresRegisters,
      collect() {
        if (readPool !== undefined) this.set(readPool().waiting)
      }
    }),
    /** Where the pool gauges read from (PostgreSQL only). */
    watchPool: (read: () => PostgresStores.PoolState) => {
      readPool = read
    },
    // Read from the store when scraped. Both gauges ask for the reading and wait for it (so neither shows what
    // an earlier scrape read), sharing the one query in flight (`boundedReading`) — started by this scrape, or
    // by an earlier one that gave up waiting for it.
    webhookBacklogAge: new Gauge({
      name: "kasko_webhook_outbox_oldest_pending_seconds",
      help: "Age of the oldest event not yet delivered to every subscription (0 when none waits)",
      registers,
      async collect() {
        const reading = await readBacklog?.()
        if (reading === undefined) return
        const { backlog, now } = reading
        this.set(
          backlog.oldest_undelivered_at === undefined ? 0 : Math.max(0, now - backlog.oldest_undelivered_at) / 1000
        )
      }
    }),
    pendingDeliveries: new Gauge({
      name: "kasko_webhook_pending_deliveries",
      help: "Webhook deliveries pending: due now, or waiting for a retry",
      registers,
      async collect() {
        const reading = await readBacklog?.()
        if (reading !== undefined) this.set(reading.backlog.pending_deliveries)
      }
    }),
    /** Where the backlog gauges read from (the service's outbox, once its runtime is up). */
    watchBacklog: (read: BacklogReading) => {
      readBacklog = read
    },
    requests: new Counter({
      name: "kasko_http_requests_total",
      help: "Partner API requests answered, by operation, status and environment: production or sandbox (the key's), none (not authenticated)",
      labelNames: ["operation", "status", "environment"],
      registers
    }),
    requestDuration: new Histogram({
      name: "kasko_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by operation, status and environment",
      labelNames: ["operation", "status", "environment"],
      buckets: DURATION_BUCKETS,
      registers
    }),
    requestsInFlight: new Gauge({
      name: "kasko_http_requests_in_flight",
      help: "Partner API requests being answered now",
      registers
    }),
    toolCalls: new Counter({
      name: "kasko_mcp_tool_calls_total",
      help: "MCP tool calls answered (over HTTP and stdio), by tool, outcome — ok, refused (the caller's arguments or scope), failed (the service's fault) — and environment: production or sandbox",
      labelNames: ["tool", "outcome", "environment"],
      registers
    }),
    toolCallDuration: new Histogram({
      name: "kasko_mcp_tool_call_duration_seconds",
      help: "Time to answer an MCP tool call, by tool and environment",
      labelNames: ["tool", "environment"],
      buckets: DURATION_BUCKETS,
      registers
    }),
    quotesCreated: new Counter({
      name: "kasko_quotes_created_total",
      help: "Quotes stored, by environment: production or sandbox",
      labelNames: ["environment"],
      registers
    }),
    quotesActivated: new Counter({
      name: "kasko_quotes_activated_total",
      help: "Quotes activated, by environment: production or sandbox",
      labelNames: ["environment"],
      registers
    }),
    quotesExpired: new Counter({
      name: "kasko_quotes_expired_total",
      help: "Production quotes that reached their validity's end unactivated, removed by the purge",
      registers
    }),
    pricingDuration: new Histogram({
      name: "kasko_pricing_duration_seconds",
      help: "Time to price a quote, or to decode and price an offer request",
      buckets: PRICING_BUCKETS,
      registers
    }),
    storeCallDuration: new Histogram({
      name: "kasko_store_call_duration_seconds",
      help: "Time of a call to a store, by store and operation",
      labelNames: ["store", "operation"],
      buckets: DURATION_BUCKETS,
      registers
    }),
    groupCommitQuotes: new Histogram({
      name: "kasko_sqlite_group_commit_quotes",
      help: "Quotes stored by one SQLite group commit (one transaction, one fsync)",
      buckets: BATCH_BUCKETS,
      registers: sqliteRegisters
    }),
    webhookAttempts: new Counter({
      name: "kasko_webhook_attempts_total",
      help: "Webhook delivery attempts, by outcome: delivered, retry (failed, to be retried), dead_lettered",
      labelNames: ["outcome"],
      registers
    }),
    webhookSubscriptionsDisabled: new Counter({
      name: "kasko_webhook_subscriptions_disabled_total",
      help: "Webhook subscriptions disabled by their endpoint's answers: 410 Gone, or every attempt failing for 5 days",
      registers
    }),
    webhookLag: new Histogram({
      name: "kasko_webhook_delivery_lag_seconds",
      help: "Time from an event's commit to its delivery's 2xx",
      buckets: LAG_BUCKETS,
      registers
    })
  }
  // Every label set known in advance starts at 0: increase() and rate() need a sample before an event to see it,
  // so a series born with its first event (the first dead letter, an operation's first 500) would read as no
  // increase. A public operation's statuses start under environment none; a key's operation's under production and
  // sandbox, but its 401 (credentials refused) under none. The duration histogram starts each operation's 200 in
  // the environment most of its requests are answered in only: 17 series a label set, and its quantiles lose
  // nothing by a first failure's time, or a sandbox's first request's.
  for (const operation of OPERATIONS) {
    const environments: ReadonlyArray<EnvironmentLabel> = operation.scope === undefined ? ["none"] : ENVIRONMENTS
    for (const status of documentedStatuses(operation))
      for (const environment of status === 401 ? ["none"] : environments)
        metrics.requests.inc({ operation: operation.operationId, status: String(status), environment }, 0)
    metrics.requestDuration.zero({ operation: operation.operationId, status: "200", environment: environments[0]! })
  }
  for (const outcome of WEBHOOK_OUTCOMES) metrics.webhookAttempts.inc({ outcome }, 0)
  // the MCP endpoint's requests beside the operations', and each tool's calls by outcome
  for (const environment of ENVIRONMENTS) metrics.requests.inc({ operation: "mcp", status: "200", environment }, 0)
  metrics.requestDuration.zero({ operation: "mcp", status: "200", environment: "production" })
  for (const tool of TOOL_NAMES) {
    for (const outcome of TOOL_OUTCOMES)
      for (const environment of ENVIRONMENTS) metrics.toolCalls.inc({ tool, outcome, environment }, 0)
    metrics.toolCallDuration.zero({ tool, environment: "production" })
  }
  for (const environment of ENVIRONMENTS) {
    metrics.quotesCreated.inc({ environment }, 0)
    metrics.quotesActivated.inc({ environment }, 0)
  }
  return metrics
}

export type ServiceMetrics = ReturnType<typeof makeServiceMetrics>

/** The partner API's requests, counted and timed by operation, status and environment (`none`: not authenticated). */
export const requestObserverOf = (metrics: ServiceMetrics): RequestObserver => ({
  started: () => metrics.requestsInFlight.inc(),
  answered: (operation, status, seconds, environment) => {
    metrics.requestsInFlight.dec()
    const labels = { operation, status: String(status), environment: environment ?? "none" }
    metrics.requests.inc(labels)
    metrics.requestDuration.observe(labels, seconds)
  }
})

/** MCP tool calls, counted by tool, outcome and environment and timed by tool and environment. */
export const toolCallObserverOf = (metrics: ServiceMetrics): ToolCallObserver => ({
  called: (tool, outcome, seconds, environment) => {
    metrics.toolCalls.inc({ tool, outcome, environment })
    metrics.toolCallDuration.observe({ tool, environment }, seconds)
  }
})

/** Webhook attempts, counted by outcome; a delivery's lag from the event's commit to the endpoint's 2xx. */
export const webhookObserverOf =
  (metrics: ServiceMetrics) =>
  ({ event }: EventOutbox.ClaimedDelivery, outcome: EventOutbox.AttemptOutcome, answeredAt: number): void => {
    const label: WebhookOutcome = outcome.delivered
      ? "delivered"
      : outcome.retryAt === undefined
        ? "dead_lettered"
        : "retry"
    metrics.webhookAttempts.inc({ outcome: label })
    if (outcome.delivered) metrics.webhookLag.observe(Math.max(0, answeredAt - event.occurred_at) / 1000)
  }
