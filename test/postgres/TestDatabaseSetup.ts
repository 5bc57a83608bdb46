/**
 * Global setup of the `postgres` project in vitest.config.ts, so it runs only
 * when a PostgreSQL suite is part of the run. It asks the configured server
 * (KASKO_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test);
 * when nothing answers there it starts an embedded PostgreSQL for the run and
 * stops it afterwards. The suites read the chosen URL from TestDatabase.ts.
 */
import type { TestProject } from "vitest/node"
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from "./EmbeddedPostgresServer.js"
import { pg } from "./SetupPackages.js"

const CONFIGURED_URL = process.env["KASKO_TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

type Probe =
  | { readonly answers: true; readonly refusal?: string }
  | { readonly answers: false; readonly silence: string }

/** Whether a PostgreSQL server answers at `url` — refusing us counts as an answer. */
const probe = async (url: string): Promise<Probe> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
  client.on("error", () => undefined)
  try {
    await client.connect()
  } catch (error) {
    // a server that refuses (unknown role, missing database) is still the configured server:
    // the suites then fail with its answer rather than quietly testing another server
    if (error instanceof pg.DatabaseError) return { answers: true, refusal: error.message }
    return { answers: false, silence: error instanceof Error ? error.message : String(error) }
  }
  await client.end()
  return { answers: true }
}

const withoutPassword = (url: string) => {
  const shown = new URL(url)
  if (shown.password !== "") shown.password = "***"
  return shown.toString()
}

// initdb and start take seconds; a setup still waiting after this has hung, and says so rather than letting the run end
const SETUP_DEADLINE_MILLIS = 180_000
const DID_NOT_START = "the embedded PostgreSQL did not start"

/**
 * `starting`, or a rejection naming the deadline: the pending timer also keeps the run alive while it waits. A
 * server that starts after the deadline is stopped (and its directory removed) at once.
 */
const withinDeadline = (starting: Promise<EmbeddedPostgresServer>): Promise<EmbeddedPostgresServer> => {
  let timer: NodeJS.Timeout | undefined
  let late = false
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      late = true
      reject(new Error(`${DID_NOT_START} within ${SETUP_DEADLINE_MILLIS / 1000} s`))
    }, SETUP_DEADLINE_MILLIS)
  })
  void starting.then((server) => (late ? server.stop() : undefined)).catch(() => undefined)
  return Promise.race([starting, deadline]).finally(() => clearTimeout(timer))
}

export default async function setup(project: TestProject) {
  const configured = await probe(CONFIGURED_URL)
  if (configured.answers) {
    const refusal = configured.refusal === undefined ? "" : ` (which refuses: ${configured.refusal})`
    console.log(`PostgreSQL suites use the configured server at ${withoutPassword(CONFIGURED_URL)}${refusal}`)
    project.provide("testDatabaseUrl", CONFIGURED_URL)
    return
  }
  const server = await withinDeadline(startEmbeddedPostgres(new URL(CONFIGURED_URL))).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    throw message.startsWith(DID_NOT_START) ? error : new Error(`${DID_NOT_START}: ${message}`)
  })
  console.log(
    `PostgreSQL suites use an embedded ${server.version.split(" on ")[0]} at ${withoutPassword(server.url)}, ` +
      `started because nothing answers at ${withoutPassword(CONFIGURED_URL)} (${configured.silence})`
  )
  project.provide("testDatabaseUrl", server.url)
  return server.stop
}
