/** `kasko serve`: starts the HTTP service and runs until SIGTERM or SIGINT. */
import { Either } from "effect"
import { CONFIG_HELP, readServiceConfig } from "./ServiceConfig.js"
import { startService } from "./Service.js"
import type { CommandResult } from "./OfferCommand.js"

export const SERVE_USAGE = `usage: kasko serve

Serves the Partner Car Insurance API on the embedded SQLite store.

${CONFIG_HELP}`

/** Starts the service; resolves when it has stopped after a signal. */
export const runServeCommand = async (args: ReadonlyArray<string>): Promise<CommandResult> => {
  if (args.includes("--help")) return { stdout: `${SERVE_USAGE}\n`, stderr: "", exitCode: 0 }
  if (args.length > 0) return { stdout: "", stderr: `kasko serve: unexpected arguments: ${args.join(" ")}\n${SERVE_USAGE}\n`, exitCode: 2 }
  const config = readServiceConfig(process.env)
  if (Either.isLeft(config)) return { stdout: "", stderr: `kasko serve: ${config.left}\n\n${CONFIG_HELP}\n`, exitCode: 2 }
  let service
  try {
    service = await startService({ config: config.right })
  } catch (error) {
    return { stdout: "", stderr: `kasko serve: ${(error as Error).message}\n`, exitCode: 1 }
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
  return { stdout: "", stderr: "", exitCode: 0 }
}
