/**
 * `kasko serve` loads at start only what serving needs: the PDF renderer (pdfkit, fontkit) with the first
 * document asked for, the metrics registry (prom-client) only when metrics are on.
 */
import { spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const MAIN = join(import.meta.dirname, "..", "..", "packages", "server", "bin", "kasko.mjs")
const directory = temporaryDirectory("kasko-loaded-")
afterAll(() => directory.remove())

const PDF_RENDERER = /\/node_modules\/(pdfkit|fontkit)\//
const METRICS_REGISTRY = /\/node_modules\/prom-client\//

/** `kasko serve` with every module it loads written down; answers its URL, what it loaded so far, and a stop. */
const serveRecording = async (environment: Record<string, string>) => {
  const loads = directory.newFile("loads.txt")
  writeFileSync(loads, "")
  const recorder = directory.newFile("record-loads.mjs")
  writeFileSync(
    recorder,
    `import { appendFileSync } from "node:fs"
import { registerHooks } from "node:module"
import { threadId } from "node:worker_threads"
registerHooks({ load: (url, context, next) => { appendFileSync(${JSON.stringify(loads)}, threadId + " " + url + "\\n"); return next(url, context) } })
`
  )
  const child = spawn(process.execPath, ["--import", pathToFileURL(recorder).href, MAIN, "serve"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      KASKO_DATA_DIR: join(directory.path, `data-${Math.random().toString(36).slice(2)}`),
      ...environment
    },
    stdio: ["ignore", "ignore", "pipe"]
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`kasko serve exited with ${code}`)))
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const match = /serves on (http:\/\/[^ ]+)/.exec(line)
      if (match) resolve(match[1]!)
    })
  })
  return {
    url,
    /** The modules loaded so far, by any thread. */
    loaded: () =>
      readFileSync(loads, "utf8")
        .trim()
        .split("\n")
        .map((line) => line.slice(line.indexOf(" ") + 1)),
    /** The modules the service's own thread (thread 0) loaded so far. */
    loadedByServiceThread: () =>
      readFileSync(loads, "utf8")
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("0 "))
        .map((line) => line.slice(2)),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })
  }
}

describe("kasko serve at start", () => {
  it("has not loaded the PDF renderer or the metrics registry, and loads the renderer with the first document, in a thread of its own", async () => {
    const service = await serveRecording({})
    try {
      const health = await fetch(`${service.url}/health`)
      expect(health.status).toBe(200)
      // says the version of kasko running: the server package's
      const { version } = JSON.parse(
        readFileSync(join(import.meta.dirname, "..", "..", "packages", "server", "package.json"), "utf8")
      ) as { version: string }
      expect(await health.json()).toEqual({ status: "ok", version })
      expect(service.loaded().filter((url) => PDF_RENDERER.test(url) || METRICS_REGISTRY.test(url))).toEqual([])
      const policy = await fetch(`${service.url}/privacy-policy`)
      expect(policy.status).toBe(200)
      expect(policy.headers.get("content-type")).toBe("application/pdf")
      expect(service.loaded().some((url) => PDF_RENDERER.test(url))).toBe(true)
      expect(service.loaded().some((url) => METRICS_REGISTRY.test(url))).toBe(false)
      // laid out in a thread of its own: the service's thread never loads the renderer, so never runs it
      expect(service.loadedByServiceThread().filter((url) => PDF_RENDERER.test(url))).toEqual([])
    } finally {
      await service.stop()
    }
  })

  it("loads the metrics registry when the metrics are on", async () => {
    const service = await serveRecording({ KASKO_METRICS_PORT: "0" })
    try {
      expect(service.loaded().some((url) => METRICS_REGISTRY.test(url))).toBe(true)
    } finally {
      await service.stop()
    }
  })
})
