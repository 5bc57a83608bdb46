/**
 * The outbox's events: a committed change has exactly one event, written with
 * it; a change that fails or does not happen (a duplicate, an idempotency key
 * already used, a second activation) has none; events are forgotten with the
 * oldest quotes kept.
 */
import { EventOutbox, QuoteStore } from "@kasko/core"
import { QuoteLifecycle } from "@kasko/core/storage"
import { Effect, Exit, Option } from "effect"
import { beforeAll, expect, it } from "vitest"
import { bodyOf, DAY, type MakeStores, RETENTION } from "./ContractHarness.js"
import { makeFixtures } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote

/** The cases of the outbox's events, in the describe block that calls it. */
export const quoteEventCases = (makeLayer: MakeStores): void => {
  let fixtures: ReadonlyArray<StoredQuote> = []
  beforeAll(async () => {
    fixtures = await makeFixtures()
  })

  /** Runs a program against a fresh store and its outbox; closed afterwards. */
  const withStores = <A, E>(
    program: (
      store: QuoteStore.QuoteStore["Service"],
      outbox: EventOutbox.EventOutbox["Service"]
    ) => Effect.Effect<A, E>
  ) =>
    Effect.runPromise(
      Effect.flatMap(Effect.all([QuoteStore.QuoteStore, EventOutbox.EventOutbox]), ([store, outbox]) =>
        program(store, outbox)
      ).pipe(Effect.provide(makeLayer())) as Effect.Effect<A, unknown>
    )

  it("writes one quote.created event with the quote's creation, its body the quote as retrieved", async () => {
    const fixture = fixtures[0]!
    const events = await withStores((store, outbox) =>
      Effect.gen(function* () {
        yield* store.insert(fixture)
        return yield* outbox.eventsOfQuote(fixture.quote_id)
      })
    )
    expect(events).toHaveLength(1)
    const [event] = events
    expect(event).toMatchObject({
      event_id: `evt_${fixture.quote_id}_created`,
      type: "quote.created",
      occurred_at: fixture.created_at,
      partner_id: fixture.partner_id,
      quote_id: fixture.quote_id
    })
    expect(bodyOf(event!)).toEqual({
      id: `evt_${fixture.quote_id}_created`,
      type: "quote.created",
      occurred_at: new Date(fixture.created_at).toISOString(),
      partner_id: fixture.partner_id,
      quote_id: fixture.quote_id,
      data: {
        state: "await_activation",
        quote: {
          ...fixture.quote,
          status: "await_activation",
          expires_at: new Date(fixture.created_at + 30 * DAY).toISOString()
        }
      }
    })
  })

  it("writes no event for an insert that fails, and keeps the one of the quote stored before", async () => {
    const fixture = fixtures[0]!
    const { second, events } = await withStores((store, outbox) =>
      Effect.gen(function* () {
        yield* store.insert(fixture)
        // a duplicate is a defect, not a failure a caller handles: either way the insert does not happen
        const second = yield* Effect.exit(store.insert(fixture))
        return { second, events: yield* outbox.eventsOfQuote(fixture.quote_id) }
      })
    )
    expect(Exit.isFailure(second)).toBe(true)
    expect(events.map((event) => event.type)).toEqual(["quote.created"])
  })

  it("writes no event when an idempotency key answers an earlier quote instead", async () => {
    const [first, retry] = fixtures
    const key = { key: "order-4711", fingerprint: "f1", unused_before: first!.created_at - DAY }
    const { answered, firstEvents, retryEvents } = await withStores((store, outbox) =>
      Effect.gen(function* () {
        yield* store.insertIdempotent(first!, key)
        const answered = yield* store.insertIdempotent({ ...retry!, partner_id: first!.partner_id }, key)
        return {
          answered,
          firstEvents: yield* outbox.eventsOfQuote(first!.quote_id),
          retryEvents: yield* outbox.eventsOfQuote(retry!.quote_id)
        }
      })
    )
    expect(Option.isSome(answered)).toBe(true)
    expect(firstEvents.map((event) => event.type)).toEqual(["quote.created"])
    expect(retryEvents).toEqual([])
  })

  it("writes one quote.activated event with the first activation only", async () => {
    const fixture = fixtures[0]!
    const activatedAt = fixture.created_at + DAY
    const events = await withStores((store, outbox) =>
      Effect.gen(function* () {
        yield* store.insert(fixture)
        yield* store.markActivated(fixture.partner_id, fixture.quote_id, activatedAt)
        yield* store.markActivated(fixture.partner_id, fixture.quote_id, activatedAt + DAY)
        yield* store.markActivated("another-partner", fixture.quote_id, activatedAt)
        return yield* outbox.eventsOfQuote(fixture.quote_id)
      })
    )
    expect(events.map((event) => event.type)).toEqual(["quote.created", "quote.activated"])
    const activated = events[1]!
    expect(activated.occurred_at).toBe(activatedAt)
    expect(bodyOf(activated).data).toEqual(
      QuoteLifecycle.retrievedForm({ ...fixture, activated_at: activatedAt }) as unknown
    )
    expect(bodyOf(activated).data.state).toBe("activated")
  })

  it("writes one quote.expired event for each unactivated quote the purge deletes, none for activated ones", async () => {
    const [awaiting, activated] = fixtures
    const now = Math.max(awaiting!.created_at, activated!.created_at) + QuoteLifecycle.QUOTE_VALIDITY_MILLIS + DAY
    const cutoffs = QuoteLifecycle.purgeCutoffs(now, 0)
    const result = await withStores((store, outbox) =>
      Effect.gen(function* () {
        yield* store.insert(awaiting!)
        yield* store.insert(activated!)
        yield* store.markActivated(activated!.partner_id, activated!.quote_id, activated!.created_at + DAY)
        const keptEvents = QuoteLifecycle.purgeCutoffs(now, RETENTION)
        const deleted = yield* store.purge({
          ...cutoffs,
          activatedCreatedAtOrBefore: keptEvents.activatedCreatedAtOrBefore
        })
        yield* store.purge({ ...cutoffs, activatedCreatedAtOrBefore: keptEvents.activatedCreatedAtOrBefore })
        return {
          deleted,
          awaitingEvents: yield* outbox.eventsOfQuote(awaiting!.quote_id),
          activatedEvents: yield* outbox.eventsOfQuote(activated!.quote_id)
        }
      })
    )
    expect(result.deleted).toBe(1)
    expect(result.awaitingEvents.map((event) => event.type)).toEqual(["quote.created", "quote.expired"])
    const expired = result.awaitingEvents[1]!
    expect(expired.occurred_at).toBe(QuoteLifecycle.expiresAt(awaiting!))
    expect(bodyOf(expired)).toMatchObject({ type: "quote.expired", data: { state: "await_activation" } })
    expect(result.activatedEvents.map((event) => event.type)).toEqual(["quote.created", "quote.activated"])
  })

  it("forgets events as old as the oldest quotes it keeps", async () => {
    const fixture = fixtures[0]!
    const expiredAt = fixture.created_at + QuoteLifecycle.QUOTE_VALIDITY_MILLIS
    const events = await withStores((store, outbox) =>
      Effect.gen(function* () {
        yield* store.insert(fixture)
        // expired and purged, its events kept: they are younger than the oldest quotes kept
        yield* store.purge(QuoteLifecycle.purgeCutoffs(expiredAt + DAY, RETENTION))
        const kept = yield* outbox.eventsOfQuote(fixture.quote_id)
        // a year on, the oldest quotes kept are younger than both events
        yield* store.purge(QuoteLifecycle.purgeCutoffs(expiredAt + 2 * RETENTION, RETENTION))
        return { kept, later: yield* outbox.eventsOfQuote(fixture.quote_id) }
      })
    )
    expect(events.kept.map((event) => event.type)).toEqual(["quote.created", "quote.expired"])
    expect(events.later).toEqual([])
  })
}
