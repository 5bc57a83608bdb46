// Which Node.js kasko runs on: what this package's `engines` says (22.19 or later; 24 recommended). Kept apart
// from the command, and free of any import but node:fs, so the check runs before anything a too-old Node
// would fail on less clearly.
import { readFileSync } from "node:fs"

const engines = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines.node

/** The oldest Node.js release kasko supports, as [major, minor], from `engines` (">=22.19.0"). */
export const OLDEST_SUPPORTED = /^>=(\d+)\.(\d+)\.\d+$/.exec(engines).slice(1, 3).map(Number)

/** The reason a Node.js version (as `process.versions.node` spells it) cannot run kasko, or undefined when it can. */
export const unsupportedNodeReason = (version) => {
  const [major, minor] = version.split(".").map(Number)
  const [oldestMajor, oldestMinor] = OLDEST_SUPPORTED
  if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return undefined
  return (
    `kasko needs Node.js ${oldestMajor}.${oldestMinor} or later (24 recommended); this is Node.js ${version}.\n` +
    `On a Linux machine without it, scripts/use-node in the repository puts Node 24 from the npm registry on PATH:\n` +
    `  eval "$(scripts/use-node 24)"\n`
  )
}
