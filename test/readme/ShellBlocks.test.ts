/**
 * Every shell block of README.md, docs/development.md, the operations guide
 * (docs/operations/README.md) and examples/README.md runs as written, in
 * order, as a new user would run them: bash in the repository, npm's default
 * configuration (no user npmrc, no npm or pnpm variables from the test run),
 * the data in a temporary directory. "Your first request in two minutes" and
 * "Receive webhooks" are tests.
 *
 * What a terminal does that a test must do for itself, and nothing more:
 * - a command that serves (`… start`, `… example:todo`, `… example:receiver`,
 *   `kasko workbench`) runs in the background on a free port of its own until
 *   it says it serves; the blocks after it talk to it where they say
 *   `localhost:8080` (the service) or `127.0.0.1:9000` (the webhook receiver);
 * - a `start` stops the service an earlier one started, as the README asks
 *   (Ctrl-C, then start it again), and so does a `kasko restore`, as the
 *   operations guide asks (a backup is restored on a stopped service);
 * - the shell keeps its variables from one block to the next (the `$KEY` and
 *   `$TOKEN` of the first requests serve the blocks after them);
 * - the README's test command is not run from inside the test run (it would
 *   run itself): the test checks it is the command `.ci/run` runs, which CI
 *   proves;
 * - the PostgreSQL of "Running several instances" (`db.internal`) is this run's
 *   test database.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { testDatabaseUrl } from "../postgres/TestDatabase.js"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const README_FILES = [
  "README.md",
  join("docs", "development.md"),
  join("docs", "operations", "README.md"),
  join("examples", "README.md"),
  join("examples", "products", "README.md"),
  join("examples", "actuary-workbench", "README.md")
]
const SERVES = /npx --yes pnpm@10 (start|example:todo|example:receiver)( &)?$|npx kasko workbench$/
// where the README's webhook receiver listens (examples/webhook-receiver's default port)
const RECEIVER_ADDRESS = "127.0.0.1:9000"
// files (and the guide's folder of backups) the blocks write in the repository, as a user's terminal would; removed afterwards
const WRITTEN_FILES = ["grid.csv", "grid.svg", "book.csv", "backups"]
const RESTORES = /^npx kasko restore /
const TEST_COMMAND = "npx --yes pnpm@10 test"
const DOCUMENTED_DATABASE = "postgres://kasko@db.internal:5432/kasko"
// the documented schema, run as one of this run's own on the shared test server: a schema named `kasko` there is
// every checkout's, and another's migrations (newer or older) made this one's start refuse it
const DOCUMENTED_SCHEMA = "KASKO_DATABASE_SCHEMA=kasko "
const RUN_SCHEMA = `kasko_readme_${process.pid}`

// waits until a background command's log names its URL; fails, with the log, when it stops first or takes 5 minutes
const WAIT_UNTIL_SERVING = `wait_until_serving() {
  for _ in $(seq 1 600); do
    grep -q 'http://' "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { cat "$1"; return 1; }
    sleep 0.5
  done
  cat "$1"; return 1
}`

/** The ```sh blocks of a Markdown file, in order. */
const shellBlocks = (file: string): Array<string> =>
  [...readFileSync(join(ROOT, file), "utf8").matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!)

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** The environment of a new user's terminal: none of the test run's npm or pnpm settings, npm's defaults. */
const userEnvironment = (dataDirectory: string, npmrc: string): NodeJS.ProcessEnv => {
  const environment: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|PNPM_|npm_config_|NODE_OPTIONS$|VITEST|TEST$)/i.test(name)) continue
    environment[name] = value
  }
  environment["PATH"] = (process.env["PATH"] ?? "")
    .split(":")
    .filter((entry) => !entry.includes("node_modules"))
    .join(":")
  environment["npm_config_userconfig"] = npmrc
  environment["KASKO_DATA_DIR"] = dataDirectory
  return environment
}

interface Ran {
  readonly status: number | null
  readonly output: string
}

const runBash = (script: string, environment: NodeJS.ProcessEnv, background: Array<ChildProcess>): Promise<Ran> =>
  new Promise((resolve) => {
    // its own process group, so what it leaves serving in the background can be stopped with it
    const bash = spawn("bash", ["-c", script], {
      cwd: ROOT,
      env: environment,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"]
    })
    background.push(bash)
    let output = ""
    bash.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    bash.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    // without the colours a terminal would show
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes, which start with ESC
    bash.on("exit", (status) => resolve({ status, output: output.replace(/\x1b\[[0-9;]*m/g, "") }))
  })

describe("the README's shell blocks", () => {
  const directory = temporaryDirectory("kasko-readme-")
  const background: Array<ChildProcess> = []
  afterAll(async () => {
    for (const child of background) {
      try {
        process.kill(-child.pid!, "SIGTERM")
      } catch {
        // already gone
      }
    }
    directory.remove()
    for (const file of WRITTEN_FILES) rmSync(join(ROOT, file), { force: true, recursive: true })
    const admin = new pg.Client({ connectionString: testDatabaseUrl })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS ${RUN_SCHEMA} CASCADE`)
    await admin.end()
  })

  it("run as written, in order: install, serve, a partner, a token, the first requests, a webhook delivered, several instances, the examples, the actuary's commands", async () => {
    const writtenBefore = WRITTEN_FILES.filter((file) => existsSync(join(ROOT, file)))
    expect(writtenBefore, "files a block writes exist already; the test would remove them").toEqual([])
    const npmrc = directory.newFile("npmrc")
    writeFileSync(npmrc, "")
    const environment = userEnvironment(directory.newFile("data"), npmrc)
    const ciRun = readFileSync(join(ROOT, ".ci", "run"), "utf8")
    // the shell's variables, kept from one block for the next: every name a block assigns at the start of a line
    const variables = directory.newFile("variables.sh")
    const assigned = new Set<string>()
    const receiverPort = await freePort()
    let receiverLog: string | undefined
    let servicePort: number | undefined
    let service: ChildProcess | undefined
    const served: Array<{ block: string; kind: string; port: number }> = []
    const outputs: Array<string> = []

    for (const file of README_FILES) {
      for (const block of shellBlocks(file)) {
        const lines = ["set -euo pipefail", WAIT_UNTIL_SERVING, `if [ -f ${variables} ]; then source ${variables}; fi`]
        const servedHere: Array<{ kind: string; port: number }> = []
        for (const written of block.split("\n")) {
          let line = written
            .replaceAll(DOCUMENTED_DATABASE, testDatabaseUrl)
            .replaceAll(DOCUMENTED_SCHEMA, `KASKO_DATABASE_SCHEMA=${RUN_SCHEMA} `)
          for (const name of line.matchAll(/^\s*([A-Za-z_]\w*)=/g)) assigned.add(name[1]!)
          if (line.endsWith(TEST_COMMAND)) {
            // the suite cannot run itself; CI runs this exact command
            expect(ciRun).toContain(`\n${TEST_COMMAND}\n`)
            line = line.slice(0, -TEST_COMMAND.length).replace(/\s*&&\s*$/, "")
          }
          if (RESTORES.test(line) && service !== undefined) {
            await stopped(service)
            service = undefined
          }
          const serving = SERVES.exec(line)
          if (serving !== null) {
            const kind = serving[1] ?? "workbench"
            const port = kind === "example:receiver" ? receiverPort : await freePort()
            const log = directory.newFile("serving.log")
            if (kind === "start") {
              if (service !== undefined) await stopped(service)
              servicePort = port
            }
            if (kind === "example:receiver") receiverLog = log
            servedHere.push({ kind, port })
            const launch = serving[0].replace(/ &$/, "")
            const command = serving[1] === undefined ? `${launch} --port ${port}` : `PORT=${port} ${launch}`
            line = `${line.slice(0, serving.index)}${command} > ${log} 2>&1 & pid=$!; wait_until_serving ${log} $pid`
          }
          line = line.replaceAll(RECEIVER_ADDRESS, `127.0.0.1:${receiverPort}`)
          lines.push(servicePort === undefined ? line : line.replaceAll("localhost:8080", `localhost:${servicePort}`))
        }
        // (with no name, `declare -p` would print every variable, the shell's read-only ones too)
        if (assigned.size > 0) lines.push(`declare -p ${[...assigned].join(" ")} > ${variables} 2>/dev/null || true`)
        const ran = await runBash(lines.join("\n"), environment, background)
        expect(ran.status, `${file}:\n${block}\n${ran.output}`).toBe(0)
        // what a block prints ends its line (curl's answers by -w '\n'), so that the reader's prompt does not land on it
        if (ran.output !== "") expect(ran.output, `${file}:\n${block}\nprints no newline last`).toMatch(/\n$/)
        outputs.push(ran.output)
        if (servedHere.some((entry) => entry.kind === "start")) service = background.at(-1)
        for (const entry of servedHere) {
          served.push({ block, ...entry })
          await expectServing(entry)
        }
      }
    }

    // the first requests: a priced offer, the product definition
    const walkthrough = outputs.join("\n")
    expect(walkthrough).toMatch(/"price":\{"annually":\d+,"monthly":\d+\}/)
    expect(walkthrough).toMatch(/"product_name":"insurance-car-leasing"/)
    // then a quote: created, read back (its id and price), activated (spec §3: an empty JSON object)
    expect(walkthrough).toMatch(/\{"quote_id":"[0-9a-f-]{36}","price":\{"amount":\d+,"currency":"DKK"/)
    expect(outputs).toContainEqual(expect.stringMatching(/"expires_at":"[^"]+Z"\}\n\{\}\n$/))

    // every service the blocks started answered while it ran: the SQLite one, again with webhooks to http allowed,
    // the webhook receiver, the several-instances one on PostgreSQL with JWKS, the showcase, the workbench
    expect(served.map((entry) => [entry.kind, entry.block])).toEqual([
      ["start", expect.stringContaining("npx --yes pnpm@10 install && npx --yes pnpm@10 start\n")],
      ["start", expect.stringContaining("KASKO_WEBHOOKS_ALLOW_INSECURE=true npx --yes pnpm@10 start\n")],
      ["example:receiver", expect.stringContaining("/webhooks/subscriptions")],
      ["start", expect.stringContaining("KASKO_DATABASE_URL=postgres://kasko@db.internal:5432/kasko")],
      ["example:todo", expect.stringContaining("npx --yes pnpm@10 example:todo\n")],
      ["start", expect.stringContaining("KASKO_PRODUCTS_DIR=examples/products npx --yes pnpm@10 start\n")],
      ["workbench", expect.stringContaining("npx kasko workbench\n")]
    ])

    // the example product, sold by the service started with its directory: its quote under its variant's name
    expect(walkthrough).toMatch(/"product_name":"insurance-van-business","title":"Erhvervsforsikring til varevogn/)
    expect(walkthrough).toMatch(/"product":\{"product_name":"business-insurance-van-craft"/)

    // the operations guide's backup, into a folder it made, and its restore over the service's database, --force
    // and all, keeping the partners and keys of the database it replaced
    expect(outputs).toContainEqual(
      expect.stringMatching(/^ok: \S+\/backups\/kasko-2026-03-02\.db, \d+ bytes, [1-9]\d* quotes?\n$/)
    )
    expect(outputs).toContainEqual(
      expect.stringMatching(
        /^restored: \S+\/kasko\.db from \S+\/backups\/kasko-2026-03-02\.db, \d+ bytes, [1-9]\d* quotes?\nthe replaced database's partners and subscription keys are kept: the same as the backup's\n/
      )
    )

    // "Receive webhooks": the quote the block created reached the receiver, verified, and its delivery says so
    const deliveries = outputs.find((output) => output.includes('"deliveries"'))
    expect(deliveries, outputs.join("\n----\n")).toMatch(/"event_type":"quote\.created"/)
    const delivered = /"quote_id":"([0-9a-f-]{36})"[^}]*"state":"delivered"/.exec(deliveries!)
    expect(delivered, deliveries).not.toBeNull()
    expect(readFileSync(receiverLog!, "utf8")).toMatch(new RegExp(`quote\\.created ${delivered![1]}\\n`))

    // the actuary's commands: the golden table holds, a worksheet, a grid written where --out says, a diff, a clean lint
    const actuary = outputs.at(-1)!
    expect(actuary).toMatch(/Tests\s+\d+ passed/)
    expect(actuary).not.toMatch(/\d+ failed/)
    expect(readFileSync(join(ROOT, "grid.svg"), "utf8")).toMatch(/^<svg/)
    expect(readFileSync(join(ROOT, "grid.csv"), "utf8").split("\n").length).toBeGreaterThan(8)
    expect(actuary).toContain("0 errors, 0 warnings")
    // the impact of the rebalanced proposal on the example's book, and the factor hitting its target
    expect(actuary).toMatch(/6 414 policies priced \(exposure [\d.]+\): 6 410 affected/)
    expect(actuary).toContain("Not compared: 3 586 cases of insurance-car-standalone")
    expect(actuary).toMatch(/Target \+2\.0000 % on the capped premium: a factor of [\d.]+ on the rates of kasko/)
    expect(readFileSync(join(ROOT, "book.csv"), "utf8").split("\n")).toHaveLength(100_002)
  }, 600_000)
})

/** What each kind of serving command answers while it runs. */
const expectServing = async ({ kind, port }: { kind: string; port: number }) => {
  const base = `http://127.0.0.1:${port}`
  if (kind === "start") {
    expect((await fetch(`${base}/ready`)).status).toBe(200)
    // no credentials: 401 with a challenge, whether tokens are the embedded key pair's or the identity provider's
    expect((await fetch(`${base}/products/insurance-car-leasing`)).status).toBe(401)
  } else if (kind === "example:todo") {
    expect((await fetch(`${base}/todo-list/todos`)).status).toBe(200)
  } else if (kind === "example:receiver") {
    // it takes POSTs only
    expect((await fetch(base)).status).toBe(405)
  } else {
    expect((await fetch(`${base}/`)).status).toBe(200)
  }
}

/** Stops what a block left serving, as Ctrl-C in its terminal would, and waits until all of it is gone (30 s at most). */
const stopped = async (block: ChildProcess) => {
  const alive = () => {
    try {
      process.kill(-block.pid!, 0)
      return true
    } catch {
      return false
    }
  }
  // SIGTERM: a non-interactive bash starts its background jobs ignoring SIGINT; kasko stops alike on both
  if (alive()) process.kill(-block.pid!, "SIGTERM")
  for (let waited = 0; alive() && waited < 30_000; waited += 100) await new Promise((done) => setTimeout(done, 100))
  expect(alive(), "the service stopped").toBe(false)
}
