// Installs kasko as embedders and operators do, from a registry (issue 45, item 3): publishes every public package
// with `pnpm release` to a throw-away verdaccio on 127.0.0.1, then, in fresh projects outside the workspace,
// installs them by name and version with npm and with pnpm, type-checks the core README's example under
// `tsc --strict` and runs it on SQLite and in memory, and installs @kasko/server and serves a priced offer with
// `npx kasko serve`. Run by .ci/run (not by `pnpm test`: it downloads verdaccio and the packages' dependencies):
//
//   node scripts/release-install-check.mjs
//
// It prints what it did and the figures (install time, installed size), and exits non-zero at the first failure.
import { execFileSync, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { publicPackages, ROOT } from "./releasedPackage.mjs"

const VERDACCIO_VERSION = "6.10.4"
const PNPM = "pnpm@10"
const HOST = "127.0.0.1"

const work = mkdtempSync(join(tmpdir(), "kasko-registry-install-"))
const children = []
// the children spawned `detached`, each the leader of a process group stopped whole
const leadsGroup = new WeakSet()
const say = (line) => process.stdout.write(`registry-install: ${line}\n`)
/**
 * Stops a child and what it started: `npx kasko …` runs kasko as npx's own child, which a signal to npx alone would
 * leave serving (and this script waiting for it), so those children lead a process group of their own (`detached`).
 */
const stop = (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  try {
    if (leadsGroup.has(child)) process.kill(-child.pid, "SIGTERM")
    else child.kill("SIGTERM")
  } catch {
    // gone already
  }
}
const cleanUp = () => {
  for (const child of children) stop(child)
  if (process.env.KASKO_KEEP_INSTALL_TEST === undefined) rmSync(work, { recursive: true, force: true })
}
process.on("exit", cleanUp)
const fail = (message) => {
  process.stderr.write(`registry-install: FAILED: ${message}\n`)
  process.exit(1)
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, HOST, () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Runs a command to its end in `cwd`; its output returned, or the test failed with it. */
const run = (command, args, cwd, environment = {}) => {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      env: { ...process.env, ...environment },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024
    })
  } catch (error) {
    fail(`${command} ${args.join(" ")} (in ${cwd}) exited ${error.status}:\n${error.stdout}\n${error.stderr}`)
  }
}

/** Polls `check` until it answers true, at most `attempts` times, `pauseMillis` apart. */
const eventually = async (what, check, attempts = 600, pauseMillis = 100) => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, pauseMillis))
  }
  fail(`${what} did not happen`)
}

const directorySize = (path) =>
  readdirSync(path, { withFileTypes: true }).reduce((total, entry) => {
    const inner = join(path, entry.name)
    if (entry.isSymbolicLink()) return total
    return total + (entry.isDirectory() ? directorySize(inner) : statSync(inner).size)
  }, 0)

const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

// --- a throw-away registry: @kasko/* published here, everything else proxied to the npm registry ---
const port = await freePort()
const registry = `http://${HOST}:${port}/`
const upstream = run("npm", ["config", "get", "registry"], work).trim()
mkdirSync(join(work, "registry"))
writeFileSync(
  join(work, "registry", "config.yaml"),
  `storage: ${join(work, "registry", "storage")}
uplinks:
  upstream:
    url: ${upstream}
    timeout: 60s
packages:
  "@kasko/*":
    access: $all
    publish: $authenticated
  "**":
    access: $all
    proxy: upstream
auth:
  htpasswd:
    file: ${join(work, "registry", "htpasswd")}
    max_users: 1
log: { type: stdout, format: pretty, level: error }
`
)
// installed apart, with one override: verdaccio-audit asks for node-fetch by the dist-tag "cjs", which a mirror of
// the npm registry may not carry (this machine's does not); 2.7.0 is what the tag names
const tools = join(work, "tools")
mkdirSync(tools)
writeFileSync(
  join(tools, "package.json"),
  JSON.stringify({
    name: "kasko-release-tools",
    private: true,
    dependencies: { verdaccio: VERDACCIO_VERSION },
    overrides: { "verdaccio-audit": { "node-fetch": "2.7.0" } }
  })
)
run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], tools)
say(`starting verdaccio ${VERDACCIO_VERSION} on ${registry}`)
const verdaccio = spawn(
  process.execPath,
  [
    join(tools, "node_modules", "verdaccio", "bin", "verdaccio"),
    "--config",
    join(work, "registry", "config.yaml"),
    "--listen",
    `${HOST}:${port}`
  ],
  { cwd: work, stdio: ["ignore", "inherit", "inherit"] }
)
children.push(verdaccio)
await eventually("verdaccio answering", async () => (await fetch(`${registry}-/ping`)).ok)

// a user to publish as: verdaccio gives its token on sign-up
const signedUp = await fetch(`${registry}-/user/org.couchdb.user:release`, {
  method: "PUT",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "release", password: "release-password", type: "user", roles: [] })
})
if (!signedUp.ok) fail(`verdaccio refused the publishing user: ${signedUp.status} ${await signedUp.text()}`)
const publishing = (await signedUp.json()).token
const npmrc = join(work, "npmrc")
writeFileSync(npmrc, `registry=${registry}\n//${HOST}:${port}/:_authToken=${publishing}\n`)
const registryEnvironment = { npm_config_registry: registry, npm_config_userconfig: npmrc }

// --- the release, as `pnpm release` makes it, published there ---
const released = publicPackages()
const version = released.find((entry) => entry.name === "@kasko/core").version
say(`publishing ${released.length} packages at ${version} with pnpm release`)
// the registry is thrown away after, so a tree with changes (CI's own, or a contributor's) is published as it stands
run(
  process.execPath,
  [join(ROOT, "scripts", "release.mjs"), "--skip-checks", "--no-version", "--allow-changes"],
  ROOT,
  registryEnvironment
)
for (const entry of released) {
  const listed = run("npm", ["view", `${entry.name}@${entry.version}`, "version"], work, registryEnvironment).trim()
  if (listed !== entry.version) fail(`${entry.name}@${entry.version} is not in the registry after the release`)
}
say(`published: ${released.map((entry) => `${entry.name}@${entry.version}`).join(", ")}`)

/** The first TypeScript block of a README, as published. */
const firstTypeScriptBlock = (readme) => {
  const match = /```ts\n([\s\S]*?)```/.exec(readme)
  if (match === null) fail("the core README has no TypeScript example")
  return match[1]
}

const effectRange = JSON.parse(readFileSync(join(ROOT, "packages", "core", "package.json"), "utf8")).peerDependencies
  .effect

/** A fresh project outside the workspace, type: module. */
const freshProject = (name) => {
  const directory = join(work, name)
  mkdirSync(directory)
  writeFileSync(
    join(directory, "package.json"),
    `${JSON.stringify({ name: `kasko-${name}`, private: true, type: "module" }, null, 2)}\n`
  )
  return directory
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ["node"]
  },
  include: ["example.ts"]
}

/** Type-checks the core README's example as published, under tsc --strict, and runs it on each store. */
const checkEmbedding = (directory, how) => {
  const readme = readFileSync(join(directory, "node_modules", "@kasko", "core", "README.md"), "utf8")
  writeFileSync(join(directory, "example.ts"), firstTypeScriptBlock(readme))
  writeFileSync(join(directory, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2))
  run(process.execPath, [join(directory, "node_modules", "typescript", "bin", "tsc"), "-p", "."], directory)
  say(`${how}: the core README's example type-checks under tsc --strict`)
  for (const store of ["sqlite", "memory"]) {
    const printed = run(process.execPath, ["example.ts"], directory, { KASKO_STORE: store })
    if (!/\d+ kr/.test(printed) || !/activated/.test(printed))
      fail(`${how}: the example on ${store} printed no price and activation:\n${printed}`)
    say(`${how}: the example ran on ${store}: ${printed.trim().split("\n").join(" | ")}`)
  }
}

// --- an embedder with npm ---
const withNpm = freshProject("npm")
const installStarted = process.hrtime.bigint()
run(
  "npm",
  [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `@kasko/core@${version}`,
    `@kasko/sqlite@${version}`,
    `effect@${effectRange}`
  ],
  withNpm,
  registryEnvironment
)
const installSeconds = Number(process.hrtime.bigint() - installStarted) / 1e9
const installedBytes = directorySize(join(withNpm, "node_modules"))
say(
  `npm install @kasko/core@${version} @kasko/sqlite@${version} effect: ${installSeconds.toFixed(1)} s, node_modules ${megabytes(installedBytes)}`
)
const compiled = run("find", ["node_modules", "-name", "*.node", "-newer", "package.json"], withNpm).trim()
const built = run("find", ["node_modules", "-path", "*/build/Release/*", "-name", "*.o"], withNpm).trim()
if (built !== "") fail(`the install compiled native code:\n${built}`)
say(`no compiler ran (native modules found: ${compiled === "" ? "prebuilt only" : compiled.split("\n").length})`)
run(
  "npm",
  [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `@kasko/memory@${version}`,
    "typescript@5",
    "@types/node@24"
  ],
  withNpm,
  registryEnvironment
)
checkEmbedding(withNpm, "npm")

// --- an embedder with pnpm ---
const withPnpm = freshProject("pnpm")
run(
  "npx",
  [
    "--yes",
    PNPM,
    "add",
    `@kasko/core@${version}`,
    `@kasko/sqlite@${version}`,
    `@kasko/memory@${version}`,
    `effect@${effectRange}`,
    "typescript@5",
    "@types/node@24",
    // better-sqlite3 ships its binaries prebuilt: nothing to build (pnpm 10 runs no install script unless allowed)
    "--config.ignore-workspace=true"
  ],
  withPnpm,
  registryEnvironment
)
checkEmbedding(withPnpm, "pnpm")

// --- an operator: the service from the registry, a priced offer ---
const service = freshProject("service")
run(
  "npm",
  ["install", "--no-audit", "--no-fund", "--loglevel=error", `@kasko/server@${version}`],
  service,
  registryEnvironment
)
const kasko = (args, environment = {}) =>
  run("npx", ["--no-install", "kasko", ...args], service, { KASKO_DATA_DIR: join(service, "data"), ...environment })
const reportedVersion = kasko(["--version"]).trim()
if (reportedVersion !== version) fail(`kasko --version says ${reportedVersion}, not ${version}`)
const key = kasko(["partners", "add", "--id", "bilhuset", "--name", "Bilhuset Øst A/S", "--cvr", "12345674"]).trim()
const token = kasko(["tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--ttl", "10m"]).trim()
const servicePort = await freePort()
const serving = spawn("npx", ["--no-install", "kasko", "serve"], {
  cwd: service,
  env: { ...process.env, KASKO_DATA_DIR: join(service, "data"), PORT: String(servicePort), HOST },
  stdio: ["ignore", "ignore", "inherit"],
  detached: true
})
children.push(serving)
leadsGroup.add(serving)
const base = `http://${HOST}:${servicePort}`
await eventually("kasko serve answering", async () => (await fetch(`${base}/health`)).ok)
const health = await (await fetch(`${base}/health`)).json()
if (health.version !== version) fail(`/health says version ${health.version}, not ${version}`)
const offer = await fetch(`${base}/insurance/car/offers`, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "ocp-apim-subscription-key": key },
  // an offer takes a quote request's body too: its product is priced
  body: readFileSync(join(ROOT, "examples", "requests", "quote.json"), "utf8")
})
const offered = await offer.json()
if (offer.status !== 200 || !Number.isInteger(offered.price?.annually))
  fail(`the installed service answered the offer ${offer.status}: ${JSON.stringify(offered)}`)
say(
  `npx kasko serve (@kasko/server@${version} from the registry): /health ${JSON.stringify(health)}, an offer of ${offered.price.annually} kr a year`
)
stop(serving)

// `npx @kasko/server …` as the root README says, with nothing installed first
const bare = freshProject("npx")
const npxVersion = run("npx", ["--yes", `@kasko/server@${version}`, "--version"], bare, registryEnvironment).trim()
if (npxVersion !== version) fail(`npx @kasko/server --version says ${npxVersion}, not ${version}`)
say(`npx @kasko/server@${version} --version, nothing installed first: ${npxVersion}`)

// --- an actuary: the workbench from the registry, its page served ---
const actuary = freshProject("actuary")
run(
  "npm",
  [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    `@kasko/server@${version}`,
    `@kasko/workbench@${version}`,
    `@kasko/workbench-web@${version}`
  ],
  actuary,
  registryEnvironment
)
const workbenchPort = await freePort()
const workbench = spawn("npx", ["--no-install", "kasko", "workbench", "--port", String(workbenchPort)], {
  cwd: actuary,
  stdio: ["ignore", "ignore", "inherit"],
  detached: true
})
children.push(workbench)
leadsGroup.add(workbench)
const page = `http://${HOST}:${workbenchPort}/`
await eventually("kasko workbench answering", async () => (await fetch(page)).ok)
const html = await (await fetch(page)).text()
if (!html.includes("<script")) fail(`the installed workbench's page is not the app: ${html.slice(0, 200)}`)
say(`npx kasko workbench (@kasko/workbench-web@${version} from the registry) serves its page on ${page}`)
say("passed")
// the registry and anything still serving are stopped on exit (cleanUp): nothing left may keep CI waiting
process.exit(0)
