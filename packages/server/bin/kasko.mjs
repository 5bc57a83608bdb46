#!/usr/bin/env node
// The `kasko` command: runs the bundle that `pnpm install` (or `pnpm build`) makes in dist/cli.
import { existsSync } from "node:fs"
import { unsupportedNodeReason } from "./supported-node.mjs"

const unsupported = unsupportedNodeReason(process.versions.node)
if (unsupported !== undefined) {
  process.stderr.write(unsupported)
  process.exit(1)
}
const bundle = new URL("../dist/cli/kasko.mjs", import.meta.url)
if (!existsSync(bundle)) {
  process.stderr.write("kasko is not built yet: run `pnpm install` (or `pnpm build`) at the root of the repository\n")
  process.exit(1)
}
await import(bundle.href)
