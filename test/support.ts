/** Shared setup of the cross-package suites: the engine on the in-memory store, and the clock. */
import { IdGenerator, type QuoteStore, TariffBook } from "@kasko/core"
import { MemoryQuoteStore } from "@kasko/memory"
import { Duration, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { runCli } from "@kasko/server"
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"

export const NOW = Date.parse("2026-03-02T09:00:00.000Z")
export const DAY = Duration.toMillis(Duration.days(1))

/** A fresh engine: empty in-memory store, deterministic ids, the shipped tariff. */
export const memoryEngine: Layer.Layer<QuoteStore.QuoteStore | IdGenerator.IdGenerator | TariffBook.TariffBook> =
  Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)

/** Sets the test clock to NOW. */
export const startClock = TestClock.setTime(NOW)

/** The error a failing program fails with (the test fails if it succeeds). */
export const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

/** Runs a program on a fresh memory engine with the test clock at NOW (outside `it.effect`). */
export const runOnMemoryEngine = <A, E>(
  effect: Effect.Effect<A, E, QuoteStore.QuoteStore | IdGenerator.IdGenerator | TariffBook.TariffBook>
): Promise<A> =>
  Effect.runPromise(
    Effect.andThen(startClock, effect).pipe(Effect.provide(memoryEngine), Effect.provide(TestClock.layer()))
  )

/** A temporary directory for database files, removed by `remove()`. */
export const temporaryDirectory = (prefix: string) => {
  const path = mkdtempSync(join(tmpdir(), prefix))
  let count = 0
  return {
    path,
    /** A fresh file name inside the directory. */
    newFile: (name: string) => join(path, `${++count}-${name}`),
    remove: () => rmSync(path, { recursive: true, force: true })
  }
}

/** The in-process embedding example, built by `pnpm test`'s typecheck step. */
export const EMBED_EXAMPLE = join(import.meta.dirname, "..", "examples", "embed-in-process")

const SERVER_MAIN = join(import.meta.dirname, "..", "packages", "server", "bin", "kasko.mjs")

/** One running `kasko serve` process: its URL, and how it ended if it did. */
export interface ServiceProcess {
  readonly child: ChildProcess
  readonly url: string
  /** `exit code 1`, `signal SIGKILL`…, once the process has ended. */
  ended?: string
  /** Its last lines of standard error: the reason, when it crashed. */
  readonly lastErrors: Array<string>
  /** Sends SIGTERM and waits for the process to end. */
  readonly stop: () => Promise<void>
}

/** Starts `kasko serve` in a process of its own (its own file descriptors, its own crash) on a free port. */
export const startServiceProcess = (environment: Record<string, string>) =>
  new Promise<ServiceProcess>((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_MAIN, "serve"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", KASKO_LOG_LEVEL: "warn", ...environment },
      stdio: ["ignore", "ignore", "pipe"]
    })
    const lastErrors: Array<string> = []
    let instance: ServiceProcess | undefined
    child.on("error", reject)
    child.on("exit", (code, signal) => {
      const ended = signal === null ? `exit code ${code}` : `signal ${signal}`
      if (instance === undefined)
        reject(new Error(`kasko serve ended before serving (${ended}): ${lastErrors.join("\n")}`))
      else instance.ended = ended
    })
    const stop = () =>
      new Promise<void>((stopped) => {
        if (instance?.ended !== undefined) return stopped()
        child.once("exit", () => stopped())
        child.kill("SIGTERM")
      })
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lastErrors.push(line)
      if (lastErrors.length > 60) lastErrors.shift()
      const match = /serves on (http:\/\/[^ ]+)/.exec(line)
      if (match && instance === undefined) {
        instance = { child, url: match[1]!, lastErrors, stop }
        resolve(instance)
      }
    })
  })

/** Runs a `kasko` command with extra environment variables; answers its standard output, throws on failure. */
export const kaskoWith = async (environment: Record<string, string>, ...args: Array<string>): Promise<string> => {
  const saved = { ...process.env }
  Object.assign(process.env, environment)
  try {
    const result = await runCli(args)
    if (result.exitCode !== 0) throw new Error(`kasko ${args.join(" ")} failed: ${result.stderr}`)
    return result.stdout
  } finally {
    for (const key of Object.keys(environment)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

/** Adds a partner that may create offers to the data directory `environment` names: the JSON headers its requests carry. */
export const offersPartnerHeaders = async (environment: Record<string, string>): Promise<Record<string, string>> => {
  const { subscription_key } = JSON.parse(
    await kaskoWith(environment, "partners", "add", "--id", "steady-partner", "--name", "Steady Partner A/S", "--json")
  )
  const token = (
    await kaskoWith(environment, "tokens", "issue", "--partner", "steady-partner", "--scopes", "offers:create")
  ).trim()
  return {
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key,
    "content-type": "application/json"
  }
}
