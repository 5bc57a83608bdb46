/**
 * What `kasko workbench` does: serves the actuary's workbench — a local web
 * app that prices with the core in the browser — over a tariff directory and,
 * with `--products DIR` (or KASKO_PRODUCTS_DIR), a directory of product
 * folders loaded as `kasko serve` loads it, until SIGINT or SIGTERM.
 */
import { startWorkbenchServer } from "@kasko/workbench-web"
import { existsSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { type CommandResult, done, failed, UsageError } from "./CommandResult.js"
import { commandProducts, findingLine, readProductFolders } from "./ProductFolders.js"

type Arguments = Readonly<Record<string, unknown>>

/** The shipped tariffs: the core package's tariffs directory. */
const shippedTariffs = () =>
  join(dirname(createRequire(import.meta.url).resolve("@kasko/core/package.json")), "tariffs")

// the repository keeps its golden table and a proposed version beside the example that explains them; run from the root, the defaults find them
const REPOSITORY_GOLDEN = join("examples", "actuary-workbench", "golden")
const REPOSITORY_PROPOSALS = join("examples", "actuary-workbench", "tariffs")

/** The proposals to load: those named, none after --no-proposals, else the example's beside the shipped tariffs. */
const proposalPathsOf = (argv: Arguments, shipped: boolean): ReadonlyArray<string> => {
  // yargs reads --no-proposals of an array option as [false]
  const named = argv["proposals"] as Array<string | false> | undefined
  if (named?.includes(false)) return []
  return (
    (named as Array<string> | undefined) ?? (shipped && existsSync(REPOSITORY_PROPOSALS) ? [REPOSITORY_PROPOSALS] : [])
  )
}

/** Serves the workbench; resolves when it has stopped after a signal. */
export const serveWorkbench = async (argv: Arguments): Promise<CommandResult> => {
  const port = argv["port"] as number
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port takes 0–65535, not "${String(argv["port"])}"`)
  const tariffs = argv["tariffs"] as string | undefined
  const tariffDirectory = tariffs === undefined ? shippedTariffs() : resolve(tariffs)
  if (!existsSync(tariffDirectory) || !statSync(tariffDirectory).isDirectory())
    throw new UsageError(`no tariff directory at ${tariffDirectory}`)
  const goldenPaths =
    (argv["golden"] as Array<string> | undefined) ??
    (tariffs === undefined && existsSync(REPOSITORY_GOLDEN) ? [REPOSITORY_GOLDEN] : [])
  const missing = goldenPaths.find((path) => !existsSync(path))
  if (missing !== undefined) throw new UsageError(`no golden table at ${missing}`)
  const proposalPaths = proposalPathsOf(argv, tariffs === undefined).map((path) => resolve(path))
  const missingProposal = proposalPaths.find((path) => !existsSync(path))
  if (missingProposal !== undefined) throw new UsageError(`no proposal at ${missingProposal}`)
  // checked and refused as `kasko serve` refuses it (every error, exit 2): the page then reads it afresh on each load
  const products = commandProducts(argv)
  const productsDirectory = products === undefined ? undefined : resolve(products.directory)

  let workbench: Awaited<ReturnType<typeof startWorkbenchServer>>
  try {
    workbench = await startWorkbenchServer({
      tariffDirectory,
      goldenPaths: goldenPaths.map((path) => resolve(path)),
      proposalPaths,
      host: argv["host"] as string,
      port,
      allowBackdated: argv["allow-backdated"] === true,
      ...(productsDirectory === undefined
        ? {}
        : { products: { directory: productsDirectory, readFolders: () => readProductFolders(productsDirectory) } })
    })
  } catch (error) {
    return failed("workbench", (error as Error).message)
  }
  const running = workbench
  // heard before the line that says it serves, as `kasko serve` does (ServeAction.ts)
  const stopped = new Promise<void>((whenStopped) => {
    const stop = () => void running.stop().then(whenStopped)
    process.once("SIGTERM", stop)
    process.once("SIGINT", stop)
  })
  const besides = [
    ...(proposalPaths.length === 0 ? [] : [`, proposals from ${proposalPaths.join(", ")}`]),
    ...(productsDirectory === undefined ? [] : [`, products in ${productsDirectory}`])
  ].join("")
  // what the check warns of loads, as in `kasko serve`: said once, where the operator reads it
  for (const warning of products?.warnings ?? []) process.stderr.write(`kasko workbench: ${findingLine(warning)}\n`)
  process.stdout.write(
    `kasko workbench: ${workbench.url}/ (tariffs in ${tariffDirectory}${besides}; Ctrl-C stops it)\n`
  )
  await stopped
  return done("")
}
