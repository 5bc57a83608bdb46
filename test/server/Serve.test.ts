/**
 * `kasko serve` as a process: refuses bad configuration with a clear message,
 * and on SIGTERM stops accepting, finishes the request in flight, closes the
 * database (WAL checkpointed) and exits 0.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync, readFileSync, statSync } from "node:fs"
import { request } from "node:http"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, describe, expect, it } from "vitest"
import { addPartner } from "../http/credentials.js"
import { temporaryDirectory } from "../support.js"

const MAIN = join(import.meta.dirname, "..", "..", "packages", "server", "bin", "kasko.mjs")
const directory = temporaryDirectory("kasko-serve-")
afterAll(() => directory.remove())

const serve = (environment: Record<string, string>) =>
  spawn(process.execPath, [MAIN, "serve"], {
    env: { ...process.env, ...environment },
    stdio: ["ignore", "pipe", "pipe"]
  })

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))

const collect = (stream: NodeJS.ReadableStream) => {
  let text = ""
  stream.on("data", (chunk) => (text += String(chunk)))
  return () => text
}

describe("kasko serve", () => {
  it("refuses an invalid configuration with a message naming the variable, exit code 2", async () => {
    const child = serve({ PORT: "not-a-port", KASKO_DATA_DIR: directory.path })
    const stderr = collect(child.stderr!)
    expect(await exitOf(child)).toBe(2)
    expect(stderr()).toContain("PORT")
    expect(stderr()).toContain("invalid configuration")
  })

  it("refuses a public URL that is not an http(s) URL with no query, fragment or user info, naming it, exit code 2", async () => {
    for (const publicUrl of ["javascript:alert(1)//", "api.example.com"]) {
      const child = serve({ KASKO_PUBLIC_URL: publicUrl, KASKO_DATA_DIR: directory.path })
      const stderr = collect(child.stderr!)
      expect(await exitOf(child), publicUrl).toBe(2)
      expect(stderr()).toContain("invalid configuration")
      expect(stderr()).toContain(
        `KASKO_PUBLIC_URL: "Expected an http or https URL with no query, fragment or user info`
      )
    }
  })

  it("runs the service with V8's young generation sized for a service, unless the user chose a size", async () => {
    const flagsOf = async (environment: Record<string, string>) => {
      const child = serve({
        PORT: "0",
        HOST: "127.0.0.1",
        KASKO_DATA_DIR: join(directory.path, "flags"),
        ...environment
      })
      const exited = exitOf(child)
      await new Promise<void>((resolve) =>
        createInterface({ input: child.stderr! }).on("line", (line) => line.includes("serves on") && resolve())
      )
      // the launcher replaced itself (same process) with a Node started with the flags
      const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0")
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      return commandLine.filter((argument) => argument.startsWith("--max-semi-space-size"))
    }
    expect(await flagsOf({})).toEqual(["--max-semi-space-size=8"])
    expect(await flagsOf({ NODE_OPTIONS: "--max-semi-space-size=16" })).toEqual([])
  }, 30_000)

  it("finishes the request in flight on SIGTERM, closes the database and exits 0", async () => {
    const dataDirectory = join(directory.path, "graceful")
    const partner = await addPartner(dataDirectory, "graceful-partner", "offers:create")
    const child = serve({ PORT: "0", HOST: "127.0.0.1", KASKO_DATA_DIR: dataDirectory, KASKO_LOG_LEVEL: "info" })
    const stdout = collect(child.stdout!)
    const url = await new Promise<string>((resolve) =>
      createInterface({ input: child.stderr! }).on("line", (line) => {
        const match = /serves on (http:\/\/[^ ]+)/.exec(line)
        if (match) resolve(match[1]!)
      })
    )
    const exited = exitOf(child)
    const stopping = new Promise<void>((resolve) =>
      createInterface({ input: child.stdout! }).on("line", (line) => line.includes('"msg":"stopping"') && resolve())
    )
    // a request whose body is still arriving when the signal comes: the service has its head (it
    // answered 100 Continue), the signal has reached it (it logged "stopping"), then the body ends
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const pending = request(
        `${url}/insurance/car/offers`,
        {
          method: "POST",
          headers: {
            ...partner.headers,
            "content-type": "application/json",
            "transfer-encoding": "chunked",
            expect: "100-continue"
          }
        },
        (response) => {
          let body = ""
          response.on("data", (chunk) => (body += String(chunk)))
          response.on("end", () => resolve({ status: response.statusCode!, body }))
        }
      )
      pending.on("error", reject)
      pending.on("continue", () => {
        pending.write('{"product": {"product_name": "insurance-car-leasing", ')
        child.kill("SIGTERM")
        void stopping.then(() =>
          pending.end(
            '"parameters": {"policy_holder": "person", "vehicle_type": "personbil", "vehicle_user": "person", "vehicle_owner": "organization", "vehicle_usage": "privat_person_koersel", "vehicle_price": "200000"}, "features": [{"name": "standard"}]}}'
          )
        )
      })
      pending.flushHeaders()
    })
    const finished = await answer
    expect(finished.status).toBe(200)
    expect(JSON.parse(finished.body).price.annually).toBe(7600)
    expect(await exited).toBe(0)
    expect(stdout()).toContain("kasko stopped")
    const wal = join(dataDirectory, "kasko.db-wal")
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true)
  }, 30_000)

  it("writes a request's log line with no request after it, though its log is written in blocks, and its last on SIGHUP", async () => {
    const dataDirectory = join(directory.path, "log-blocks")
    const partner = await addPartner(dataDirectory, "log-partner", "quotes:read")
    const child = serve({ PORT: "0", HOST: "127.0.0.1", KASKO_DATA_DIR: dataDirectory, KASKO_LOG_LEVEL: "info" })
    const exited = exitOf(child)
    try {
      const lines: Array<Record<string, unknown>> = []
      const waiting = new Map<string, () => void>()
      createInterface({ input: child.stdout! }).on("line", (text) => {
        lines.push(JSON.parse(text) as Record<string, unknown>)
        for (const [needle, found] of waiting) if (text.includes(needle)) found()
      })
      const lineWith = (needle: string) => new Promise<void>((resolve) => waiting.set(needle, resolve))
      const url = await new Promise<string>((resolve) =>
        createInterface({ input: child.stderr! }).on("line", (line) => {
          const match = /serves on (http:\/\/[^ ]+)/.exec(line)
          if (match) resolve(match[1]!)
        })
      )
      const answered = await fetch(`${url}/insurance/car/quotes/no-such-quote`, { headers: partner.headers })
      expect(answered.status).toBe(404)
      // one request's line is far short of a block: only the periodic flush can write it, with the
      // service left alone (without it, this waits until the test's time is up)
      await lineWith(answered.headers.get("x-request-id")!)
      // a closed terminal stops it as gracefully, the log's last lines written
      child.kill("SIGHUP")
      expect(await exited).toBe(0)
      expect(lines.some((line) => line.msg === "kasko stopped")).toBe(true)
    } finally {
      child.kill("SIGTERM")
      await exited
    }
  }, 30_000)
})
