/**
 * A quote insert waiting for its SQLite group commit can be let go of: an
 * insert interrupted before the group commits is never stored, while the rest
 * of the group is.
 */
import type { QuoteStore } from "@kasko/core"
import * as SqliteConnection from "../src/SqliteConnection.js"
import * as SqliteQuoteStore from "../src/SqliteQuoteStore.js"
import { Effect, Fiber, Option } from "effect"
import { setImmediate as nextTurn } from "node:timers/promises"
import { beforeAll, describe, expect, it } from "vitest"
import { makeFixtures, variantOf } from "@kasko/store-contracts"
import { scratchFiles } from "./ScratchFiles.js"

const directory = scratchFiles("kasko-interrupted-insert-")
let fixtures: ReadonlyArray<QuoteStore.StoredQuote> = []
beforeAll(async () => {
  fixtures = await makeFixtures()
})

describe("an insert waiting for its group commit", () => {
  it("is never stored when interrupted before the group commits; the rest of the group is", async () => {
    const database = SqliteConnection.openConnection({ filename: directory.newFile("quotes.db") })
    try {
      const store = SqliteQuoteStore.makeQuoteStore(database)
      const [kept, dropped] = [variantOf(fixtures[0]!, 1), variantOf(fixtures[0]!, 2)]
      const keptFiber = Effect.runFork(store.insert(kept))
      const droppedFiber = Effect.runFork(store.insert(dropped))
      // in the same turn of the event loop, before the group's commit runs
      Effect.runFork(Fiber.interrupt(droppedFiber))
      await Effect.runPromise(Fiber.join(keptFiber))
      await Effect.runPromise(Fiber.await(droppedFiber))
      // a group commit runs on the turn after its first insert (setImmediate): one still waiting has run by now
      await nextTurn()
      await nextTurn()
      const found = (quote: QuoteStore.StoredQuote) => Effect.runPromise(store.find(quote.partner_id, quote.quote_id))
      expect(Option.isSome(await found(kept))).toBe(true)
      expect(await found(dropped)).toEqual(Option.none())
    } finally {
      SqliteConnection.closeConnection(database)
    }
  })
})
