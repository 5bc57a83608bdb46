// Started by RequestPath.test.ts: the real service (SQLite, bearer token and subscription key) in this process,
// warmed up, then V8's precise coverage over one POST /insurance/car/quotes. Prints, as JSON, the workspace source
// files whose functions ran during that request, as repository paths of their TypeScript sources.
import { Examples } from "@kasko/core"
import { readServiceConfig, runCli, startService } from "@kasko/server"
import { mkdtempSync, rmSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(import.meta.dirname, "..", "..")
const directory = mkdtempSync(join(tmpdir(), "kasko-request-path-"))
process.env.KASKO_DATA_DIR = directory
const cli = async (...args) => {
  const result = await runCli(args)
  if (result.exitCode !== 0) throw new Error(result.stderr)
  return result.stdout
}
const { subscription_key } = JSON.parse(
  await cli("partners", "add", "--id", "path-partner", "--name", "Path A/S", "--json")
)
const token = (
  await cli("tokens", "issue", "--partner", "path-partner", "--scopes", "quotes:create", "--ttl", "1h")
).trim()
const config = readServiceConfig({ KASKO_DATA_DIR: directory, PORT: "0", HOST: "127.0.0.1", KASKO_LOG_LEVEL: "silent" })
if (config._tag !== "Success") throw new Error(config.failure)
// no dispatcher: the pass a commit wakes it to make runs on its own fiber, beside the request, not on its path
const service = await startService({ config: config.success, dispatchWebhooks: false })
const body = JSON.stringify(Examples.quoteRequest())
const createQuote = async () => {
  const answer = await fetch(`${service.url}/insurance/car/quotes`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "ocp-apim-subscription-key": subscription_key
    },
    body
  })
  if (answer.status !== 200) throw new Error(`POST /insurance/car/quotes answered ${answer.status}`)
  await answer.arrayBuffer()
}
try {
  // warmed: what runs once (lazy set-up, first compilations of a tariff) is not part of a request's path
  for (let round = 0; round < 20; round++) await createQuote()
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false })
  await session.post("Profiler.takePreciseCoverage")
  await createQuote()
  const { result } = await session.post("Profiler.takePreciseCoverage")
  await session.post("Profiler.stopPreciseCoverage")
  session.disconnect()
  const files = new Set()
  for (const script of result) {
    if (!script.url.startsWith("file://") || script.url.includes("/node_modules/")) continue
    if (!script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) continue
    const path = relative(ROOT, fileURLToPath(script.url))
    const source = /^((?:packages|adapters)\/[^/]+)\/dist\/(src\/.+)\.js$/.exec(path)
    if (source !== null) files.add(`${source[1]}/${source[2]}.ts`)
  }
  process.stdout.write(`${JSON.stringify([...files].sort())}\n`)
} finally {
  await service.stop()
  rmSync(directory, { recursive: true, force: true })
}
