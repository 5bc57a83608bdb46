/** Shared setup of the cross-package suites: the engine on the in-memory store, and the clock. */
import { IdGenerator, type QuoteStore, TariffBook } from "@kasko/core"
import { MemoryQuoteStore } from "@kasko/memory"
import { Duration, Effect, Layer, TestClock, TestContext } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const NOW = Date.parse("2026-03-02T09:00:00.000Z")
export const DAY = Duration.toMillis(Duration.days(1))

/** A fresh engine: empty in-memory store, deterministic ids, the shipped tariff. */
export const memoryEngine: Layer.Layer<QuoteStore.QuoteStore | IdGenerator.IdGenerator | TariffBook.TariffBook> = Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)

/** Sets the test clock to NOW. */
export const startClock = TestClock.setTime(NOW)

/** The error a failing program fails with (the test fails if it succeeds). */
export const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

/** Runs a program on a fresh memory engine with the test clock at NOW (outside `it.effect`). */
export const runOnMemoryEngine = <A, E>(
  effect: Effect.Effect<A, E, QuoteStore.QuoteStore | IdGenerator.IdGenerator | TariffBook.TariffBook>
): Promise<A> =>
  Effect.runPromise(
    Effect.zipRight(startClock, effect).pipe(Effect.provide(memoryEngine), Effect.provide(TestContext.TestContext))
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
