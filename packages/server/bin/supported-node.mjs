// Which Node.js kasko runs on: 22.19 or later (24, the active LTS, recommended). Kept apart from the
// command so the check runs before anything that a too-old Node would fail on less clearly.

/** The oldest Node.js release kasko supports, as [major, minor]. */
export const OLDEST_SUPPORTED = [22, 19]

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
