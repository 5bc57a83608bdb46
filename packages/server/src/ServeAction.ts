/** What `kasko serve` does: starts the service and runs until SIGTERM or SIGINT, then stops it gracefully. */
import { Result } from "effect"
import { type CommandResult, done, failed, invalidData, isInvalidDataError, UsageError } from "./CommandResult.js"
import { startService } from "./Service.js"
import { readServiceConfig } from "./ServiceConfig.js"

// longer than the HTTP server's 10 s grace for in-flight requests, shorter than an orchestrator's usual 30 s
const STOP_DEADLINE_MILLIS = 20_000

/** Resolves when the service has stopped after a signal. */
export const serve = async (environment: NodeJS.ProcessEnv = process.env): Promise<CommandResult> => {
  const config = readServiceConfig(environment)
  if (Result.isFailure(config)) throw new UsageError(config.failure)
  let service: Awaited<ReturnType<typeof startService>>
  try {
    service = await startService({ config: config.success })
  } catch (error) {
    // a product directory that cannot load is the operator's data to mend, as `kasko products check` says of it
    if (isInvalidDataError(error)) return invalidData("serve", error.message)
    return failed("serve", (error as Error).message)
  }
  const running = service
  // the signals are heard before the service says it serves: a supervisor that stops it as soon as it reads
  // that line found the default action still in place under load, and the service died without its stop
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      running.logger.info({ signal }, "stopping")
      // A stop that has not ended by then is ended here: in-flight requests have had the grace, and every
      // acknowledged write is committed. (A webhook sending thread that outlived its sender once kept the process
      // running after its stop; test/webhooks/SendingThread.test.ts holds that it no longer can.)
      setTimeout(() => {
        running.logger.error({ signal, after_ms: STOP_DEADLINE_MILLIS }, "stop did not finish in time: exiting")
        running.logger.flush()
        process.exit(1)
      }, STOP_DEADLINE_MILLIS).unref()
      void running.stop().then(resolve)
    }
    process.once("SIGTERM", () => stop("SIGTERM"))
    process.once("SIGINT", () => stop("SIGINT"))
    // a closed terminal or SSH session: stopped as gracefully, so the log's last block is written too
    process.once("SIGHUP", () => stop("SIGHUP"))
  })
  process.stderr.write(`kasko serves on ${service.url} (API reference: ${service.url}/docs)\n`)
  await stopped
  return done("")
}
