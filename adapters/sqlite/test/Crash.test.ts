/**
 * Crash test: a child process inserts quotes in a loop and reports each
 * acknowledged one; it is killed with SIGKILL mid-run, the database reopened,
 * and every acknowledged quote must be there, intact. Repeated on one file.
 */
import { QuoteStore } from "@kasko/core"
import { SqliteQuoteStore } from "@kasko/sqlite"
import { Effect, Option } from "effect"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { describe, expect, it } from "vitest"
import { makeFixtures, variantOf } from "@kasko/store-contracts"
import { scratchFiles } from "./ScratchFiles.js"

const directory = scratchFiles("kasko-crash-")

const KILLS = 6
const QUOTES = 3_000

/** Starts the writer and kills it after `acknowledgements` acks; answers the acknowledged indexes. */
const runAndKill = (filename: string, quotesFile: string, startIndex: number, acknowledgements: number) =>
  new Promise<Array<number>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, "crash-writer.mjs"), filename, quotesFile, String(startIndex), "FULL"],
      {
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
    const acknowledged: Array<number> = []
    // every line read is an acknowledgement, also those that arrive after the kill was sent
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line === "ready" || line === "done") return
      acknowledged.push(Number(line))
      if (acknowledged.length === acknowledgements) child.kill("SIGKILL")
    })
    child.on("error", reject)
    child.on("close", (code, signal) => {
      if (signal !== "SIGKILL")
        reject(new Error(`writer ended with code ${code}, signal ${signal}, before it was killed`))
      else resolve(acknowledged)
    })
  })

describe("crash safety", () => {
  it(`keeps every acknowledged quote across ${KILLS} SIGKILLs of the writer`, async () => {
    const fixtures = await makeFixtures()
    const quotes = Array.from({ length: QUOTES }, (_, index) => variantOf(fixtures[index % fixtures.length]!, index))
    const quotesFile = join(directory.path, "quotes.json")
    writeFileSync(quotesFile, JSON.stringify(quotes))
    const filename = directory.newFile("crash.db")

    const acknowledgedAll: Array<number> = []
    let next = 0
    for (let kill = 0; kill < KILLS; kill++) {
      // kill after a varying number of acknowledgements, so the kill lands mid-transaction at different points
      const acknowledged = await runAndKill(filename, quotesFile, next, 40 + kill * 37)
      expect(acknowledged.length).toBeGreaterThan(0)
      acknowledgedAll.push(...acknowledged)
      next = acknowledged.at(-1)! + 1
    }

    const stored = await Effect.runPromise(
      Effect.flatMap(QuoteStore.QuoteStore, (store) =>
        Effect.forEach(acknowledgedAll, (index) =>
          Effect.map(store.find(quotes[index]!.partner_id, quotes[index]!.quote_id), Option.getOrUndefined)
        )
      ).pipe(Effect.provide(SqliteQuoteStore.layer({ filename }))) as Effect.Effect<ReadonlyArray<unknown>, unknown>
    )
    expect(acknowledgedAll.length).toBeGreaterThanOrEqual(KILLS * 40)
    stored.forEach((found, position) => {
      expect(found).toEqual(quotes[acknowledgedAll[position]!])
    })
  }, 120_000)
})
