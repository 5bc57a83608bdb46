// `pnpm release`: checks the workspace, versions it from the pending changesets, and publishes every public package
// to the registry npm_config_registry names — or, with `--pack DIR`, packs them into DIR instead (what an install
// test or an air-gapped mirror takes). Every tarball is checked before anything leaves: no `workspace:` range, no
// "source" export condition, nothing but what the package's `files` name (see releasedPackage.mjs).
//
//   npm_config_registry=https://registry.example/ pnpm release
//   pnpm release --public                             (the npm registry itself: said, never by default)
//   pnpm release --pack ./releases
//   pnpm release --pack ./releases --skip-checks      (the checks ran in CI already)
//   pnpm release --pack ./releases --no-version       (the versions the packages have: an install test's)
//   pnpm release --no-version --allow-changes         (a throw-away registry's install test, on a tree with changes)
//
// Versioning (`changeset version`) changes package.json files and writes the changelogs: commit them as the release
// commit. A workspace with no pending changeset releases the versions it has.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { checkPackedTarball, publicPackages, ROOT } from "./releasedPackage.mjs"

const PUBLIC_REGISTRY = /^https?:\/\/registry\.(npmjs\.org|yarnpkg\.com)\/?$/

const { values } = parseArgs({
  options: {
    pack: { type: "string" },
    "skip-checks": { type: "boolean", default: false },
    "no-version": { type: "boolean", default: false },
    public: { type: "boolean", default: false },
    "allow-changes": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false }
  }
})
if (values.help) {
  process.stdout.write(
    "pnpm release [--pack DIR] [--skip-checks] [--no-version] [--public] [--allow-changes]\n\n" +
      "Builds, lints and runs the unit tests (unless --skip-checks), versions the packages from the pending\n" +
      "changesets (unless --no-version: the versions they have), then publishes every public package to the\n" +
      "registry npm_config_registry names (the public npm registry only with --public; the tree must be\n" +
      "committed, unless --allow-changes, never with --public), or packs them into DIR with --pack. A package the\n" +
      "registry has already is left.\n"
  )
  process.exit(0)
}

const say = (line) => process.stdout.write(`release: ${line}\n`)
const fail = (line) => {
  process.stderr.write(`release: ${line}\n`)
  process.exit(1)
}

/**
 * Runs a command, its output passed through (or, `quiet`, shown only when it fails); stops the release when it
 * fails.
 */
const run = (command, args, cwd = ROOT, quiet = false) => {
  const result = spawnSync(command, args, {
    cwd,
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
    env: process.env
  })
  if (result.status !== 0)
    fail(
      `${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})${quiet ? `:\n${result.stdout}${result.stderr}` : ""}`
    )
}

/** pnpm as this script was started with it (`pnpm release`), or the registry's pnpm 10. */
const pnpm = (args, cwd = ROOT, quiet = false) => {
  const execPath = process.env.npm_execpath
  return execPath !== undefined && /pnpm/.test(execPath)
    ? run(process.execPath, [execPath, ...args], cwd, quiet)
    : run("npx", ["--yes", "pnpm@10", ...args], cwd, quiet)
}

const registry = process.env.npm_config_registry
// a release goes where it is told, and to the public registry only when told so: pnpm sets npm_config_registry to
// the registry it installs from for every script it runs, so the variable alone cannot say that it was meant
if (values.pack === undefined && (registry === undefined || registry === ""))
  fail("name the registry to publish to in npm_config_registry, or pack with --pack DIR")
if (values.pack === undefined && PUBLIC_REGISTRY.test(registry) && !values.public)
  fail(`${registry} is the public npm registry: publish there with --public, or name another in npm_config_registry`)

const git = (...args) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" })
// what is published is what is committed (and versioned from it): a change not committed would ship unseen. A test
// publishing to a throw-away registry may say that it knows (--allow-changes); a public release never may
if (values.public && values["allow-changes"]) fail("--allow-changes is refused with --public: commit the changes first")
const changes = git("status", "--porcelain").stdout.trim()
if (values.pack === undefined && changes !== "" && !values["allow-changes"])
  fail(
    `the working tree has changes: commit them first (or pack with --pack DIR to try a release)\n${changes
      .split("\n")
      .slice(0, 20)
      .join("\n")}`
  )

if (!values["skip-checks"]) {
  say("checks: build, lint, unit tests")
  pnpm(["run", "build"])
  pnpm(["run", "lint"])
  pnpm(["exec", "vitest", "run", "--project", "unit"])
}

const pending = readdirSync(join(ROOT, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md")
if (pending.length > 0 && !values["no-version"]) {
  say(`versioning from ${pending.length} pending changesets`)
  pnpm(["exec", "changeset", "version"])
  say("versioned: commit the package.json files and changelogs as the release commit")
}
// what is packed is built from this tree (the checks build too; --skip-checks must not pack a stale dist/)
pnpm(["run", "build"], ROOT, true)

const packages = publicPackages()
const destination = values.pack === undefined ? mkdtempSync(join(tmpdir(), "kasko-release-")) : resolve(values.pack)
mkdirSync(destination, { recursive: true })
const tarballs = []
for (const released of packages) {
  const before = new Set(readdirSync(destination))
  pnpm(["pack", "--pack-destination", destination], released.directory, true)
  const made = readdirSync(destination).filter((file) => !before.has(file) && file.endsWith(".tgz"))
  if (made.length !== 1) fail(`packing ${released.name} made ${made.length} tarballs`)
  const tarball = join(destination, made[0])
  const problems = checkPackedTarball(tarball, released)
  if (problems.length > 0) fail(`${released.name} must not be released as packed:\n  ${problems.join("\n  ")}`)
  tarballs.push({ released, tarball })
}
say(
  `${tarballs.length} packages packed and checked: ${packages.map((released) => `${released.name}@${released.version}`).join(", ")}`
)

if (values.pack !== undefined) {
  say(`packed into ${destination}`)
} else {
  // the tarballs checked are the ones published, in dependency order (publicPackages sorts them); one the registry
  // has already is left: a release stopped halfway is finished by running it again
  for (const { released, tarball } of tarballs) {
    const listed = spawnSync(
      "npm",
      ["view", `${released.name}@${released.version}`, "version", "--registry", registry],
      {
        encoding: "utf8"
      }
    )
    if (listed.status === 0 && listed.stdout.trim() === released.version) {
      say(`${released.name}@${released.version} is in ${registry} already`)
      continue
    }
    say(`publishing ${released.name}@${released.version} to ${registry}`)
    run("npm", ["publish", tarball, "--access", "public", "--registry", registry], ROOT, true)
  }
  rmSync(destination, { recursive: true, force: true })
  say("published")
}
