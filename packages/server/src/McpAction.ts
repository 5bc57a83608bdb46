/**
 * What `kasko mcp --partner ID` does: opens the store the administration commands open, checks that the partner is
 * there and active, and serves the MCP tools (`@kasko/mcp`) on standard input and output as that partner, until the
 * agent closes standard input or the process is told to stop; the log goes to standard error.
 */
import { DocumentLinks, IdGenerator, PartnerStore, TariffBook } from "@kasko/core"
import { serveStdio } from "@kasko/mcp"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { randomBytes } from "node:crypto"
import { pino } from "pino"
import { type CommandResult, done, failed } from "./CommandResult.js"
import { configuration } from "./AdminActions.js"
import { commandProducts, tariffBookOf } from "./ProductFolders.js"
import { apiRootOf, documentLinksOf, type ServiceConfig } from "./ServiceConfig.js"
import { SERVICE_VERSION } from "./ServiceVersion.js"
import { databaseName, storesLayer } from "./Stores.js"

const STANDARD_ERROR = 2

/**
 * The session's log on standard error, each line written as it comes: one agent's calls are few, and an operator
 * watching the session reads them at once (the service writes its log in blocks).
 */
const sessionLogger = (config: ServiceConfig) =>
  pino(
    { level: config.logLevel, base: { service: "kasko" }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: STANDARD_ERROR, sync: false })
  )

export const serveMcp = async (argv: Readonly<Record<string, unknown>>): Promise<CommandResult> => {
  const partnerId = argv["partner"] as string
  const config = configuration()
  const products = commandProducts(argv)
  const stores = storesLayer(config)
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      stores,
      IdGenerator.layerFromRandomBytes(randomBytes),
      products === undefined ? TariffBook.shipped : tariffBookOf(products),
      Layer.succeed(
        DocumentLinks.DocumentLinks,
        documentLinksOf(config, () => apiRootOf(config, config.port))
      )
    )
  )
  const logger = sessionLogger(config)
  try {
    const partner = await runtime.runPromise(
      PartnerStore.PartnerStore.use((store) => store.findPartner(partnerId)).pipe(Effect.orDie)
    )
    if (Option.isNone(partner) || partner.value.status !== "active")
      return failed("mcp", `no active partner ${partnerId} in ${databaseName(config)}: kasko partners list shows them`)
    const stopping = new AbortController()
    const stop = () => stopping.abort()
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, stop)
    logger.info({ partner_id: partnerId, transport: "stdio" }, "kasko mcp is serving")
    const products = partner.value.products
    await serveStdio({
      runtime,
      partnerId,
      ...(products === undefined ? {} : { products }),
      version: SERVICE_VERSION,
      log: logger,
      signal: stopping.signal
    })
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.off(signal, stop)
    logger.info({ partner_id: partnerId }, "kasko mcp stopped")
    return done("")
  } finally {
    await runtime.dispose()
    logger.flush()
  }
}
