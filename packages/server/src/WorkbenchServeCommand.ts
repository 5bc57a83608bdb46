/**
 * `kasko workbench`: serves the actuary's workbench — a local web app that
 * prices with the core in the browser — over a tariff directory, until
 * SIGINT or SIGTERM.
 */
import { startWorkbenchServer } from "@kasko/workbench-web"
import { existsSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { parseArgs } from "node:util"
import type { CommandResult } from "./OfferCommand.js"

export const WORKBENCH_SERVE_USAGE = `usage: kasko workbench [--tariffs <dir>] [--golden <file.csv|dir>]… [--host <address>] [--port <port>]

Serves the actuary's workbench on http://127.0.0.1:8090/ (works offline; pricing happens in the browser,
with the same compiled engine as the service): price a case, price grids, compare versions, check and edit tariffs.

  --tariffs   the tariff directory: <product>/<version>.json files (default: the shipped tariffs);
              saving from the page writes new version files there
  --golden    golden tables to run, besides the CSV files in the tariff directory (repeatable; default with the
              shipped tariffs: examples/actuary-workbench/golden under the current directory, when it is there)
  --host      address to listen on (default 127.0.0.1: this machine only)
  --port      port to listen on (default 8090; 0 picks a free one)`

/** The shipped tariffs: the core package's tariffs directory. */
const shippedTariffs = () => join(dirname(createRequire(import.meta.url).resolve("@kasko/core/package.json")), "tariffs")

// the repository keeps its golden table beside the example that explains it; run from the root, the default finds it
const REPOSITORY_GOLDEN = join("examples", "actuary-workbench", "golden")

const usageError = (message: string): CommandResult => ({ stdout: "", stderr: `kasko workbench: ${message}\n${WORKBENCH_SERVE_USAGE}\n`, exitCode: 2 })

/** Serves the workbench; resolves when it has stopped after a signal. */
export const runWorkbenchServeCommand = async (args: ReadonlyArray<string>): Promise<CommandResult> => {
  if (args.includes("--help")) return { stdout: `${WORKBENCH_SERVE_USAGE}\n`, stderr: "", exitCode: 0 }
  let values
  try {
    ;({ values } = parseArgs({
      args: [...args],
      options: { tariffs: { type: "string" }, golden: { type: "string", multiple: true }, host: { type: "string" }, port: { type: "string" } },
      strict: true,
      allowPositionals: false
    }))
  } catch (error) {
    return usageError((error as Error).message)
  }
  const port = values.port === undefined ? 8090 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return usageError(`--port takes 0–65535, not "${values.port}"`)
  const tariffDirectory = values.tariffs === undefined ? shippedTariffs() : resolve(values.tariffs)
  if (!existsSync(tariffDirectory) || !statSync(tariffDirectory).isDirectory()) return usageError(`no tariff directory at ${tariffDirectory}`)
  const goldenPaths = values.golden ?? (values.tariffs === undefined && existsSync(REPOSITORY_GOLDEN) ? [REPOSITORY_GOLDEN] : [])
  const missing = goldenPaths.find((path) => !existsSync(path))
  if (missing !== undefined) return usageError(`no golden table at ${missing}`)

  let workbench
  try {
    workbench = await startWorkbenchServer({ tariffDirectory, goldenPaths: goldenPaths.map((path) => resolve(path)), host: values.host ?? "127.0.0.1", port })
  } catch (error) {
    return { stdout: "", stderr: `kasko workbench: ${(error as Error).message}\n`, exitCode: 1 }
  }
  process.stdout.write(`kasko workbench: ${workbench.url}/ (tariffs in ${tariffDirectory}; Ctrl-C stops it)\n`)
  const running = workbench
  await new Promise<void>((done) => {
    const stop = () => void running.stop().then(done)
    process.once("SIGTERM", stop)
    process.once("SIGINT", stop)
  })
  return { stdout: "", stderr: "", exitCode: 0 }
}
