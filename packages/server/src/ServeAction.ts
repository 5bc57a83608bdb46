/** What `kasko serve` does: starts the service and runs until SIGTERM or SIGINT, then stops it gracefully. */
import { Result } from "effect"
import { type CommandResult, done, failed, UsageError } from "./CommandResult.js"
import { startService } from "./Service.js"
import { readServiceConfig } from "./ServiceConfig.js"

/** Resolves when the service has stopped after a signal. */
export const serve = async (): Promise<CommandResult> => {
  const config = readServiceConfig(process.env)
  if (Result.isFailure(config)) throw new UsageError(config.failure)
  let service: Awaited<ReturnType<typeof startService>>
  try {
    service = await startService({ config: config.success })
  } catch (error) {
    return failed("serve", (error as Error).message)
  }
  process.stderr.write(`kasko serves on ${service.url} (API reference: ${service.url}/docs)\n`)
  const running = service
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      running.logger.info({ signal }, "stopping")
      void running.stop().then(resolve)
    }
    process.once("SIGTERM", () => stop("SIGTERM"))
    process.once("SIGINT", () => stop("SIGINT"))
  })
  return done("")
}
