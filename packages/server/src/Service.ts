/**
 * The composition root: builds the runtime once — stores (SQLite or
 * PostgreSQL), readiness, ids, tariffs, authentication, rate limits — serves
 * the Express app on it, delivers webhooks from the outbox on a fiber of its
 * own, purges expired quotes periodically, and stops
 * gracefully: no new connections, in-flight requests finished, database closed.
 */
import {
  type Authentication,
  DocumentLinks,
  EventOutbox,
  IdGenerator,
  type PartnerStore,
  QuotingService,
  Readiness,
  TariffBook,
  type WebhookSubscriptions
} from "@kasko/core"
import { Authentication as TokenAuthentication } from "@kasko/credentials"
import { PdfDocuments } from "@kasko/documents"
import { makeApp, type Services, ServiceVersion, WebhookPolicy } from "@kasko/express"
import { fromDirectory, type LoadedProducts, tariffBookOf } from "./ProductFolders.js"
import { isTrustedProxy } from "@kasko/express/toolkit"
import { mcpEndpoint } from "@kasko/mcp"
import { makeWakeups, WebhookDispatcher } from "@kasko/webhooks"
import { Cause, Clock, Effect, Exit, Fiber, Layer, ManagedRuntime, Option } from "effect"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { pino, type Logger } from "pino"
import { messageOf } from "./FailureMessages.js"
import { makeHttpServer } from "./HttpServer.js"
import { wakingOnEvents } from "./EventWakeups.js"
import { serviceStores } from "./InstrumentedStores.js"
import { rateLimiterLayer } from "./RateLimits.js"
import { listenForMetrics, type MetricsListener } from "./MetricsListener.js"
import type { ServiceMetrics } from "./ServiceMetrics.js"
import { webhookDisabledLogOf, webhookFailureLogOf } from "./WebhookFailureLog.js"
import { tracerLayer } from "./Tracing.js"
import { SERVICE_VERSION } from "./ServiceVersion.js"
import { databaseName, storeKindOf } from "./Stores.js"
import {
  API_VERSION,
  apiRootOf,
  documentLinksOf,
  serviceHostsOf,
  endpointPolicyOf,
  linksNameLocalhost,
  type ServiceConfig,
  tokenRulesOf,
  tracesUrlOf
} from "./ServiceConfig.js"

/** What `startService` runs: its configuration, and what a test or an embedder puts in place of the defaults. */
export interface ServiceOptions {
  readonly config: ServiceConfig
  /** The clock the engine reads (tests move it); real time by default. */
  readonly clock?: Clock.Clock
  readonly logger?: Logger
  /** The products added as files (`ProductFolders.fromDirectory`); read from KASKO_PRODUCTS_DIR when not given. */
  readonly products?: LoadedProducts
  /** Who the caller is; bearer token and subscription key (spec §5), verified by @kasko/credentials, by default. */
  readonly authentication?: Layer.Layer<Authentication.Authentication>
  /**
   * Whether this instance sends webhook deliveries (true by default). Without, it writes events and sends none:
   * for an instance whose deliveries others make, or a measurement of the request path alone.
   */
  readonly dispatchWebhooks?: boolean
}

/** A service `startService` started: where it listens, its logger, and how to stop it. */
export interface RunningService {
  readonly url: string
  readonly port: number
  /** Where GET /metrics answers, when KASKO_METRICS_PORT is set. */
  readonly metricsPort?: number
  readonly logger: Logger
  /** Stops accepting connections, lets in-flight requests finish, closes the database. */
  readonly stop: () => Promise<void>
}

const DAY_MILLIS = 24 * 60 * 60 * 1000

const SHUTDOWN_GRACE_MILLIS = 10_000

const BACKLOG_READ_MILLIS = 500

/** Where the keys that verify tokens come from: the identity provider's JWKS when configured, the data directory's key pair otherwise. */
const tokenKeysOf = (config: ServiceConfig): TokenAuthentication.TokenKeys =>
  Option.isSome(config.jwksUrl)
    ? {
        kind: "jwks",
        url: config.jwksUrl.value.toString(),
        cacheSeconds: config.jwksCacheSeconds,
        cooldownSeconds: config.jwksCooldownSeconds
      }
    : { kind: "embedded", dataDirectory: config.dataDirectory }

/** Log lines are written in blocks of at least this many bytes (a dozen request lines)… */
const LOG_BLOCK_BYTES = 4096
/** …or when this many milliseconds have passed, whichever comes first. */
const LOG_FLUSH_MILLIS = 100

/**
 * The service's log as `kasko serve` writes it: JSON lines on standard output, or to the file or descriptor
 * given. A write per line cost a request ~3.6 µs of the main thread (bench/profile.mjs); written in blocks,
 * a dozen requests share one. pino writes what is left when the process exits; a hard crash loses at most
 * LOG_FLUSH_MILLIS of lines.
 */
export const makeLogger = (config: ServiceConfig, destination: string | number = 1): Logger =>
  pino(
    { level: config.logLevel, base: { service: "kasko" }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: destination, sync: false, minLength: LOG_BLOCK_BYTES, periodicFlush: LOG_FLUSH_MILLIS })
  )

type AttemptObserver = NonNullable<WebhookDispatcher.DispatcherOptions["onAttempt"]>

/** The dispatcher's observer: failures to the log, every attempt to the metrics (`count`) when they are on. */
const observingWebhooks = (logger: Logger, count: AttemptObserver | undefined): AttemptObserver => {
  const logFailure = webhookFailureLogOf(logger)
  return (delivery, outcome, answeredAt) => {
    logFailure(delivery, outcome, answeredAt)
    count?.(delivery, outcome, answeredAt)
  }
}

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve((server.address() as AddressInfo).port)
    })
  })

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MILLIS)
    server.close(() => {
      clearTimeout(forced)
      resolve()
    })
    server.closeIdleConnections()
  })

/** Starts the service; rejects with a readable error when the database cannot be opened or the port taken. */
export const startService = async (options: ServiceOptions): Promise<RunningService> => {
  const { config } = options
  const logger = options.logger ?? makeLogger(config)
  // read before anything opens: a directory with an error starts nothing
  const products =
    options.products ??
    (Option.isSome(config.productsDirectory) ? fromDirectory(config.productsDirectory.value) : undefined)
  for (const warning of products?.warnings ?? [])
    logger.warn({ file: warning.file, path: warning.path }, `product folder: ${warning.message}`)
  // the metrics registry (prom-client) and its observers are loaded only when the metrics are on
  const observed = Option.isSome(config.metricsPort) ? await import("./ServiceMetrics.js") : undefined
  const metrics: ServiceMetrics | undefined = observed?.makeServiceMetrics(storeKindOf(config))
  const traced = tracesUrlOf(config) !== undefined
  // events this instance writes wake its dispatcher; other instances' wait for its poll
  const wakeups = makeWakeups()
  const stores = wakingOnEvents(serviceStores(config, metrics, traced), wakeups)
  // where the links to kasko's own documents point: the configured port's URL, the listening one's once it listens
  let apiRoot = apiRootOf(config, config.port)
  const authentication: Layer.Layer<Authentication.Authentication, unknown> =
    options.authentication ??
    TokenAuthentication.layer(tokenKeysOf(config), tokenRulesOf(config)).pipe(Layer.provide(stores))
  const services: Layer.Layer<
    Services | PartnerStore.PartnerStore | EventOutbox.EventOutbox | WebhookSubscriptions.WebhookSubscriptions,
    unknown
  > = Layer.mergeAll(
    stores,
    Readiness.layer.pipe(Layer.provide(stores)),
    authentication,
    rateLimiterLayer(config, logger),
    IdGenerator.layerFromRandomBytes(randomBytes),
    products === undefined ? TariffBook.shipped : tariffBookOf(products),
    PdfDocuments.layer(),
    Layer.succeed(
      DocumentLinks.DocumentLinks,
      documentLinksOf(config, () => apiRoot)
    ),
    Layer.succeed(WebhookPolicy, endpointPolicyOf(config)),
    Layer.succeed(ServiceVersion, SERVICE_VERSION)
  )
  const tracing = tracerLayer(config, metrics)
  const runtime = ManagedRuntime.make(
    Layer.merge(
      options.clock === undefined ? services : Layer.merge(services, Layer.succeed(Clock.Clock, options.clock)),
      tracing
    )
  )
  const started = await Effect.runPromiseExit(runtime.contextEffect)
  if (Exit.isFailure(started)) {
    await runtime.dispose()
    const failure = Cause.findErrorOption(started.cause)
    throw new Error(
      `cannot start kasko on ${databaseName(config)}: ${Option.isSome(failure) ? messageOf(failure.value) : Cause.pretty(started.cause)}`
    )
  }

  if (observed !== undefined && metrics !== undefined)
    metrics.watchBacklog(
      observed.boundedReading(
        () =>
          runtime.runPromise(
            Effect.all({
              backlog: Effect.flatMap(EventOutbox.EventOutbox, (outbox) => outbox.backlog),
              now: Clock.currentTimeMillis
            }).pipe(Effect.orElseSucceed(() => undefined))
          ),
        BACKLOG_READ_MILLIS
      )
    )
  const app = makeApp({
    runtime,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    protection: {
      requestsPerMinute: config.rateLimitPerMinute,
      sandboxRequestsPerMinute: config.sandboxRateLimitPerMinute,
      documentsPerMinute: config.documentRateLimitPerMinute,
      failedAuthenticationsPerMinute: config.authFailuresPerMinute,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy
    },
    requestTimeoutMillis: config.requestTimeoutMillis,
    // no public URL: the document's servers are relative to where it is read, not a localhost no client can reach
    document: { version: API_VERSION, serverUrl: Option.getOrUndefined(config.publicUrl), basePath: config.basePath },
    ...(observed === undefined || metrics === undefined ? {} : { observer: observed.requestObserverOf(metrics) }),
    tracing: traced,
    ...(products === undefined ? {} : { catalogue: products.catalogue }),
    // AI agents as the partner's users: the MCP tools at /mcp, on this stack (@kasko/mcp)
    endpoints: [
      mcpEndpoint({
        hosts: serviceHostsOf(config),
        origins: config.corsOrigins,
        version: SERVICE_VERSION,
        log: logger,
        ...(observed === undefined || metrics === undefined ? {} : { observer: observed.toolCallObserverOf(metrics) })
      })
    ]
  })
  const server = makeHttpServer(
    app,
    {
      headersTimeoutMillis: config.headersTimeoutMillis,
      requestTimeoutMillis: Math.max(config.bodyTimeoutMillis, config.headersTimeoutMillis),
      keepAliveTimeoutMillis: config.keepAliveTimeoutMillis,
      maxConnections: config.maxConnections,
      maxConnectionsPerAddress: config.maxConnectionsPerAddress,
      isTrustedProxy: isTrustedProxy(config.trustProxy)
    },
    logger
  )
  let port: number
  let metricsListener: MetricsListener | undefined
  try {
    port = await listen(server, config.port, config.host)
    apiRoot = apiRootOf(config, port)
    if (metrics !== undefined && Option.isSome(config.metricsPort))
      metricsListener = await listenForMetrics(metrics.registry, config.metricsPort.value, config.metricsHost)
  } catch (error) {
    await closeServer(server)
    await runtime.dispose()
    throw error
  }

  // this instance's name on the deliveries it leases: unique across instances and restarts
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`
  const dispatcher =
    options.dispatchWebhooks === false
      ? undefined
      : runtime.runFork(
          WebhookDispatcher.runDispatcher({
            owner,
            policy: endpointPolicyOf(config),
            timeoutMillis: config.webhookTimeoutMillis,
            leaseMillis: config.webhookLeaseMillis,
            onAttempt: observingWebhooks(
              logger,
              observed === undefined || metrics === undefined ? undefined : observed.webhookObserverOf(metrics)
            ),
            onDisabled: (delivery, reason, at) => {
              webhookDisabledLogOf(logger)(delivery, reason, at)
              metrics?.webhookSubscriptionsDisabled.inc()
            },
            wakeups
          })
        )
  const purge = setInterval(() => {
    runtime
      .runPromise(QuotingService.purgeExpiredQuotes(config.activatedRetentionDays * DAY_MILLIS))
      .then((deleted) => logger.info({ deleted }, "purged expired quotes"))
      .catch((error: unknown) => logger.error({ error: String(error) }, "purge failed"))
  }, config.purgeIntervalMinutes * 60_000)
  purge.unref()

  if (linksNameLocalhost(config))
    logger.warn(
      { port },
      `KASKO_PUBLIC_URL is not set: the document links in offers and quotes (ipid_href, privacy.policy_href) name ${apiRoot}, which partners' customers cannot open; set KASKO_PUBLIC_URL to the address they reach this service at`
    )
  logger.info(
    {
      port,
      database: databaseName(config),
      ...(metricsListener === undefined ? {} : { metrics_port: metricsListener.port })
    },
    "kasko is serving"
  )
  let stopping: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ...(metricsListener === undefined ? {} : { metricsPort: metricsListener.port }),
    logger,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(purge)
        await closeServer(server)
        await metricsListener?.close()
        if (dispatcher !== undefined) await runtime.runPromise(Fiber.interrupt(dispatcher))
        await runtime.dispose()
        logger.info("kasko stopped")
        logger.flush()
      })())
  }
}
