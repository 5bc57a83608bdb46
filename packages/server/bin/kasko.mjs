#!/usr/bin/env node
// The `kasko` command: runs the bundle that `pnpm install` (or `pnpm build`) makes in dist/cli, or, installed from a
// registry, what tsc compiled into dist/src.
import { existsSync } from "node:fs"
import { unsupportedNodeReason } from "./supported-node.mjs"

const unsupported = unsupportedNodeReason(process.versions.node)
if (unsupported !== undefined) {
  process.stderr.write(unsupported)
  process.exit(1)
}
// a checkout runs the bundle its build makes (it starts faster); an installed package, the modules tsc compiled
const bundle = new URL("../dist/cli/kasko.mjs", import.meta.url)
const compiled = new URL("../dist/src/main.js", import.meta.url)
const entry = existsSync(bundle) ? bundle : compiled
if (!existsSync(entry)) {
  process.stderr.write("kasko is not built yet: run `pnpm install` (or `pnpm build`) at the root of the repository\n")
  process.exit(1)
}
// `kasko serve` replaces this process with one started with the service's flags (V8's heap is sized at
// start, so they cannot be set later); where process.execve is missing (Windows) it runs as it is
// (imported here, after the Node check, which must run before anything else is read)
const missingFlags =
  process.argv[2] === "serve"
    ? (await import("./service-node-flags.mjs")).serviceNodeFlagsMissing(process.execArgv, process.env.NODE_OPTIONS)
    : []
if (missingFlags.length > 0 && typeof process.execve === "function")
  process.execve(process.execPath, [process.execPath, ...missingFlags, ...process.execArgv, ...process.argv.slice(1)])
await import(entry.href)
