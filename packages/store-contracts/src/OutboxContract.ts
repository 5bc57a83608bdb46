/**
 * The outbox contract every store honours (memory, SQLite, PostgreSQL): a
 * committed change has exactly one event, written with it; a change that
 * fails or does not happen (a duplicate, an idempotency key already used, a
 * second activation) has none. Deliveries go to the subscriptions of the
 * event's time, one dispatcher at a time (leases), in order per quote and
 * endpoint, retried when due, dead-lettered and replayed. Run it with a
 * factory that builds a fresh, empty store Layer providing the QuoteStore,
 * its EventOutbox and the webhook subscriptions.
 */
import { EventOutbox, type QuoteEvents, QuoteStore, WebhookSubscriptions } from "@kasko/core"
import type { WebhookEndpoints } from "@kasko/core/transport"
import { DeliveryAllowance, QuoteLifecycle } from "@kasko/core/storage"
import { Effect, Exit, type Layer, Option } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote
type Stores = QuoteStore.QuoteStore | EventOutbox.EventOutbox | WebhookSubscriptions.WebhookSubscriptions

const DAY = 24 * 60 * 60 * 1000
const RETENTION = 365 * DAY

export const outboxContract = (name: string, makeLayer: () => Layer.Layer<Stores, unknown>): void => {
  describe(`EventOutbox contract: ${name}`, () => {
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

    /** What a webhook would deliver for the event, as the receiver parses it. */
    const bodyOf = (event: QuoteEvents.QuoteEvent) => JSON.parse(event.payload) as QuoteEvents.QuoteEventBody

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
  })

  describe(`webhook deliveries: ${name}`, () => {
    let fixtures: ReadonlyArray<StoredQuote> = []
    beforeAll(async () => {
      fixtures = await makeFixtures()
    })

    interface Tools {
      readonly store: QuoteStore.QuoteStore["Service"]
      readonly outbox: EventOutbox.EventOutbox["Service"]
      readonly subscriptions: WebhookSubscriptions.WebhookSubscriptions["Service"]
    }
    const withTools = <A, E>(program: (tools: Tools) => Effect.Effect<A, E>) =>
      Effect.runPromise(
        Effect.flatMap(
          Effect.all({
            store: QuoteStore.QuoteStore,
            outbox: EventOutbox.EventOutbox,
            subscriptions: WebhookSubscriptions.WebhookSubscriptions
          }),
          program
        ).pipe(Effect.provide(makeLayer())) as Effect.Effect<A, unknown>
      )

    const LEASE = 30_000
    // more subscriptions than any test makes: the limit has a test of its own
    const NO_LIMIT = 1_000
    const subscription = (
      partnerId: string,
      id: string,
      eventTypes: WebhookEndpoints.WebhookSubscription["event_types"] = [
        "quote.created",
        "quote.activated",
        "quote.expired"
      ]
    ): WebhookEndpoints.WebhookSubscription => ({
      subscription_id: `whk_${id}`,
      partner_id: partnerId,
      url: `https://hooks.example/${id}`,
      event_types: eventTypes,
      secret: `whsec_${Buffer.from(id.padEnd(32, "x")).toString("base64")}`,
      created_at: 1
    })

    it("delivers each event to the subscriptions of its partner that want its type, with their url and secret", async () => {
      const [ours, theirs] = fixtures
      const claimed = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(ours!.partner_id, "all"), NO_LIMIT)
          yield* subscriptions.insert(subscription(ours!.partner_id, "activations", ["quote.activated"]), NO_LIMIT)
          yield* store.insert(ours!)
          yield* store.insert({ ...theirs!, partner_id: "someone-else" })
          return yield* outbox.claimDeliveries({ now: ours!.created_at, owner: "a", leaseMillis: LEASE, limit: 10 })
        })
      )
      expect(claimed).toEqual([
        {
          delivery_id: `dlv_whk_all_evt_${ours!.quote_id}_created`,
          subscription_id: "whk_all",
          event: expect.objectContaining({ event_id: `evt_${ours!.quote_id}_created`, type: "quote.created" }),
          url: "https://hooks.example/all",
          secret: subscription(ours!.partner_id, "all").secret,
          attempts: 0,
          first_attempt_at: undefined
        }
      ])
    })

    it("counts as backlog what is not delivered yet: a new event, then its pending delivery, until it is delivered", async () => {
      const [ours, second] = fixtures
      const backlogs = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          const seen = [yield* outbox.backlog]
          yield* subscriptions.insert(subscription(ours!.partner_id, "backlog", ["quote.created"]), NO_LIMIT)
          yield* store.insert(ours!)
          yield* store.insert({ ...second!, created_at: ours!.created_at + 5 })
          seen.push(yield* outbox.backlog)
          const now = ours!.created_at + 10
          const claimed = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 1 })
          seen.push(yield* outbox.backlog)
          yield* outbox.recordAttempts(
            "a",
            claimed.map((delivery) => ({
              deliveryId: delivery.delivery_id,
              outcome: { delivered: true, at: now, status: 204 }
            }))
          )
          seen.push(yield* outbox.backlog)
          const rest = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          yield* outbox.recordAttempts(
            "a",
            rest.map((delivery) => ({
              deliveryId: delivery.delivery_id,
              outcome: { delivered: true, at: now, status: 204 }
            }))
          )
          seen.push(yield* outbox.backlog)
          return seen
        })
      )
      expect(backlogs).toEqual([
        { pending_deliveries: 0, oldest_undelivered_at: undefined },
        // two events, not fanned out yet
        { pending_deliveries: 0, oldest_undelivered_at: ours!.created_at },
        // both fanned out by the claim, one of them leased
        { pending_deliveries: 2, oldest_undelivered_at: ours!.created_at },
        { pending_deliveries: 1, oldest_undelivered_at: ours!.created_at + 5 },
        { pending_deliveries: 0, oldest_undelivered_at: undefined }
      ])
    })

    it("leases a delivery to one dispatcher until the lease runs out; the first then cannot record it", async () => {
      const fixture = fixtures[0]!
      const now = fixture.created_at
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(fixture.partner_id, "one"), NO_LIMIT)
          yield* store.insert(fixture)
          const first = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          const whileLeased = yield* outbox.claimDeliveries({
            now: now + LEASE - 1,
            owner: "b",
            leaseMillis: LEASE,
            limit: 10
          })
          const afterLease = yield* outbox.claimDeliveries({
            now: now + LEASE,
            owner: "b",
            leaseMillis: LEASE,
            limit: 10
          })
          const lateRecord = yield* outbox.recordAttempt(first[0]!.delivery_id, "a", {
            delivered: true,
            at: now + LEASE,
            status: 200
          })
          const record = yield* outbox.recordAttempt(first[0]!.delivery_id, "b", {
            delivered: true,
            at: now + LEASE,
            status: 204
          })
          const again = yield* outbox.claimDeliveries({
            now: now + 10 * LEASE,
            owner: "c",
            leaseMillis: LEASE,
            limit: 10
          })
          const listed = yield* outbox.deliveriesOf(fixture.partner_id, { limit: 10, deadLetteredOnly: false })
          return { first, whileLeased, afterLease, lateRecord, record, again, listed }
        })
      )
      expect(result.first).toHaveLength(1)
      expect(result.whileLeased).toEqual([])
      expect(result.afterLease.map((delivery) => delivery.delivery_id)).toEqual([result.first[0]!.delivery_id])
      expect(result.lateRecord).toBe(false)
      expect(result.record).toBe(true)
      expect(result.again).toEqual([])
      expect(result.listed).toMatchObject([{ state: "delivered", attempts: 1, last_attempt_at: now + LEASE }])
    })

    it("records a round's outcomes at once, only those whose lease the recorder still holds", async () => {
      const [first, second] = fixtures
      const partnerId = first!.partner_id
      const now = Math.max(first!.created_at, second!.created_at)
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(partnerId, "batch"), NO_LIMIT)
          yield* store.insert(first!)
          yield* store.insert({ ...second!, partner_id: partnerId })
          const claimed = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          const recorded = yield* outbox.recordAttempts("a", [
            { deliveryId: claimed[0]!.delivery_id, outcome: { delivered: true, at: now, status: 200 } },
            {
              deliveryId: claimed[1]!.delivery_id,
              outcome: { delivered: false, at: now, error: "503", retryAt: now + 10_000 }
            },
            { deliveryId: "dlv_unknown", outcome: { delivered: true, at: now, status: 200 } }
          ])
          const byAnother = yield* outbox.recordAttempts("b", [
            { deliveryId: claimed[1]!.delivery_id, outcome: { delivered: true, at: now, status: 200 } }
          ])
          const listed = yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: false })
          return { claimed, recorded, byAnother, listed }
        })
      )
      expect(result.claimed).toHaveLength(2)
      expect(result.recorded).toBe(2)
      expect(result.byAnother).toBe(0)
      expect(result.listed.map((delivery) => delivery.state).sort()).toEqual(["delivered", "pending"])
    })

    it("retries a failed delivery when it is due, dead-letters it when told, and replays it on request", async () => {
      const fixture = fixtures[0]!
      const now = fixture.created_at
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(fixture.partner_id, "flaky"), NO_LIMIT)
          yield* store.insert(fixture)
          const [first] = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          yield* outbox.recordAttempt(first!.delivery_id, "a", {
            delivered: false,
            at: now,
            error: "503",
            retryAt: now + 10_000
          })
          const early = yield* outbox.claimDeliveries({ now: now + 9_999, owner: "a", leaseMillis: LEASE, limit: 10 })
          const [due] = yield* outbox.claimDeliveries({ now: now + 10_000, owner: "a", leaseMillis: LEASE, limit: 10 })
          yield* outbox.recordAttempt(due!.delivery_id, "a", {
            delivered: false,
            at: now + 10_000,
            error: "timed out",
            retryAt: undefined
          })
          const afterDeath = yield* outbox.claimDeliveries({
            now: now + 1e9,
            owner: "a",
            leaseMillis: LEASE,
            limit: 10
          })
          const dead = yield* outbox.deliveriesOf(fixture.partner_id, { limit: 10, deadLetteredOnly: true })
          const othersReplay = yield* outbox.replay("someone-else", first!.delivery_id, now + 2e9)
          const replayed = yield* outbox.replay(fixture.partner_id, first!.delivery_id, now + 2e9)
          const [again] = yield* outbox.claimDeliveries({ now: now + 2e9, owner: "a", leaseMillis: LEASE, limit: 10 })
          return { due, early, afterDeath, dead, othersReplay, replayed, again }
        })
      )
      expect(result.early).toEqual([])
      expect(result.due).toMatchObject({ attempts: 1, first_attempt_at: fixture.created_at })
      expect(result.afterDeath).toEqual([])
      expect(result.dead).toMatchObject([
        { state: "dead_lettered", attempts: 2, last_error: "timed out", next_attempt_at: undefined }
      ])
      expect(result.othersReplay).toBe(false)
      expect(result.replayed).toBe(true)
      // replayed, its retry window starts again
      expect(result.again).toMatchObject({ attempts: 2, first_attempt_at: undefined })
    })

    it("delivers a quote's events to an endpoint in order: the next waits while the one before is pending", async () => {
      const fixture = fixtures[0]!
      const now = fixture.created_at + DAY
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(fixture.partner_id, "ordered"), NO_LIMIT)
          yield* store.insert(fixture)
          yield* store.markActivated(fixture.partner_id, fixture.quote_id, now)
          const firstRound = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          yield* outbox.recordAttempt(firstRound[0]!.delivery_id, "a", {
            delivered: false,
            at: now,
            error: "500",
            retryAt: now + 10_000
          })
          const whileRetrying = yield* outbox.claimDeliveries({
            now: now + 1,
            owner: "a",
            leaseMillis: LEASE,
            limit: 10
          })
          const [retry] = yield* outbox.claimDeliveries({
            now: now + 10_000,
            owner: "a",
            leaseMillis: LEASE,
            limit: 10
          })
          yield* outbox.recordAttempt(retry!.delivery_id, "a", { delivered: true, at: now + 10_000, status: 200 })
          const secondRound = yield* outbox.claimDeliveries({
            now: now + 10_001,
            owner: "a",
            leaseMillis: LEASE,
            limit: 10
          })
          return { firstRound, whileRetrying, secondRound }
        })
      )
      expect(result.firstRound.map((delivery) => delivery.event.type)).toEqual(["quote.created"])
      expect(result.whileRetrying).toEqual([])
      expect(result.secondRound.map((delivery) => delivery.event.type)).toEqual(["quote.activated"])
    })

    describe("sharing the dispatcher among partners", () => {
      const BUSY = "busy-partner"
      const QUIET = "quiet-partner"
      /** Six due deliveries of a busy partner's endpoint, then one of a quiet partner's; answers when all are due. */
      const sixAndOne = (tools: Tools) =>
        Effect.gen(function* () {
          const fixture = fixtures[0]!
          yield* tools.subscriptions.insert(subscription(BUSY, "busy"), NO_LIMIT)
          yield* tools.subscriptions.insert(subscription(QUIET, "quiet"), NO_LIMIT)
          for (let index = 0; index < 6; index++)
            yield* tools.store.insert(
              variantOf(fixture, 100 + index, { partner_id: BUSY, created_at: fixture.created_at + index })
            )
          yield* tools.store.insert(variantOf(fixture, 200, { partner_id: QUIET, created_at: fixture.created_at + 10 }))
          return fixture.created_at + 10
        })
      const partnersOf = (claimed: ReadonlyArray<EventOutbox.ClaimedDelivery>) =>
        claimed.map((delivery) => delivery.event.partner_id)
      const claimWith = (limits: Partial<EventOutbox.DeliveryClaim>) =>
        withTools((tools) =>
          Effect.flatMap(sixAndOne(tools), (now) =>
            tools.outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 4, ...limits })
          )
        )

      it("gives each partner its share first, then what is free to endpoints known to answer in time", async () => {
        const shares = { perPartnerLimit: 2, perSubscriptionLimit: 2 }
        // the busy partner's two (its oldest), the quiet one's, then a third of the busy one's in the free slot
        expect(partnersOf(await claimWith(shares))).toEqual([BUSY, BUSY, QUIET, BUSY])
        // its endpoint seen to be slow: held to its share, the fourth slot stays free
        expect(partnersOf(await claimWith({ ...shares, slowSubscriptions: new Set(["whk_busy"]) }))).toEqual([
          BUSY,
          BUSY,
          QUIET
        ])
        // held to one at a time per endpoint, and slow: one of the busy partner's
        expect(
          partnersOf(await claimWith({ ...shares, perSubscriptionLimit: 1, slowSubscriptions: new Set(["whk_busy"]) }))
        ).toEqual([BUSY, QUIET])
        // not seen to answer in time yet (only the quiet one's endpoint was): held to its share too
        expect(partnersOf(await claimWith({ ...shares, fastSubscriptions: new Set(["whk_quiet"]) }))).toEqual([
          BUSY,
          BUSY,
          QUIET
        ])
      })

      it("finds a partner's healthy endpoint's delivery behind a backlog of its slow endpoint's", async () => {
        const fixture = fixtures[0]!
        const claimed = await withTools(({ store, outbox, subscriptions }) =>
          Effect.gen(function* () {
            yield* subscriptions.insert(subscription(BUSY, "hanging"), NO_LIMIT)
            for (let index = 0; index < 20; index++)
              yield* store.insert(
                variantOf(fixture, 600 + index, { partner_id: BUSY, created_at: fixture.created_at + index })
              )
            // the hanging endpoint's twenty deliveries are made first, the healthy one subscribes after
            yield* outbox.claimDeliveries({ now: fixture.created_at + 100, owner: "a", leaseMillis: LEASE, limit: 0 })
            yield* subscriptions.insert(subscription(BUSY, "healthy"), NO_LIMIT)
            yield* store.insert(variantOf(fixture, 650, { partner_id: BUSY, created_at: fixture.created_at + 200 }))
            return yield* outbox.claimDeliveries({
              now: fixture.created_at + 300,
              owner: "a",
              leaseMillis: LEASE,
              limit: 5,
              perPartnerLimit: 2,
              perSubscriptionLimit: 2,
              // the partner's share is in flight, to its hanging endpoint
              inFlight: { partners: new Map([[BUSY, 2]]), subscriptions: new Map([["whk_hanging", 2]]) },
              slowSubscriptions: new Set(["whk_hanging"]),
              fastSubscriptions: new Set(["whk_healthy"])
            })
          })
        )
        expect(claimed.map((delivery) => delivery.subscription_id)).toEqual(["whk_healthy"])
      })

      it("serves first the partner with fewest in flight, whose deliveries waited less", async () => {
        const inFlight = {
          partners: new Map([[BUSY, 2]]),
          subscriptions: new Map([["whk_busy", 2]])
        }
        // one slot free: the quiet partner's, though the busy partner's waited longer
        expect(partnersOf(await claimWith({ limit: 1, perPartnerLimit: 2, inFlight }))).toEqual([QUIET])
        // its share in flight already, the busy partner takes only what is left after the quiet one's
        expect(partnersOf(await claimWith({ limit: 3, perPartnerLimit: 2, inFlight }))).toEqual([QUIET, BUSY, BUSY])
      })

      it("makes another partner's new event a delivery in the first claim, however many events one partner has waiting", async () => {
        const fixture = fixtures[0]!
        const now = fixture.created_at + 1_000
        const claimed = await withTools(({ store, outbox, subscriptions }) =>
          Effect.gen(function* () {
            for (let index = 0; index < 30; index++)
              yield* subscriptions.insert(subscription(BUSY, `busy-${index}`), NO_LIMIT)
            yield* subscriptions.insert(subscription(QUIET, "quiet"), NO_LIMIT)
            // 3 000 deliveries of the busy partner to make, its events all older than the quiet partner's one
            for (let index = 0; index < 100; index++)
              yield* store.insert(
                variantOf(fixture, 300 + index, { partner_id: BUSY, created_at: fixture.created_at + index })
              )
            yield* store.insert(variantOf(fixture, 500, { partner_id: QUIET, created_at: fixture.created_at + 200 }))
            const claimed = yield* outbox.claimDeliveries({
              now,
              owner: "a",
              leaseMillis: LEASE,
              limit: 20,
              perPartnerLimit: 10
            })
            const made = yield* outbox.deliveriesOf(BUSY, { limit: 10_000, deadLetteredOnly: false })
            return { claimed, made: made.length }
          })
        )
        expect(partnersOf(claimed.claimed).filter((partner) => partner === QUIET)).toEqual([QUIET])
        expect(claimed.claimed.length).toBe(20)
        // the claim made a bounded share of the busy partner's 3 000 deliveries, the rest wait for later claims
        expect(claimed.made).toBeGreaterThan(0)
        expect(claimed.made).toBeLessThanOrEqual(DeliveryAllowance.FAN_OUT_PER_CLAIM)
      })
    })

    it("sends an event to the subscriptions of its time: not to one made after, not to one removed", async () => {
      const [first, second] = fixtures
      const partnerId = first!.partner_id
      const now = Math.max(first!.created_at, second!.created_at)
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(partnerId, "early"), NO_LIMIT)
          yield* store.insert(first!)
          yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 0 })
          yield* subscriptions.insert(subscription(partnerId, "late"), NO_LIMIT)
          yield* store.insert({ ...second!, partner_id: partnerId })
          const removed = yield* subscriptions.remove(partnerId, "whk_early")
          const claimed = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          const listed = yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: false })
          return { removed, claimed, listed }
        })
      )
      expect(result.removed).toBe(true)
      expect(result.claimed.map((delivery) => [delivery.url, delivery.event.quote_id])).toEqual([
        ["https://hooks.example/late", second!.quote_id]
      ])
      expect(result.listed.map((delivery) => delivery.subscription_id)).toEqual(["whk_late"])
    })

    it("tells since when a subscription's endpoint fails (set by a failure, cleared by a delivery), and logs each attempt", async () => {
      const fixture = fixtures[0]!
      const partnerId = fixture.partner_id
      const start = fixture.created_at + 1_000
      const { seen, log } = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(partnerId, "flaky"), NO_LIMIT)
          const seen: Array<number | undefined> = []
          const claimAndRecord = (now: number, outcome: EventOutbox.AttemptOutcome) =>
            Effect.gen(function* () {
              const [claimed] = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 1 })
              seen.push(claimed!.failing_since)
              yield* outbox.recordAttempts("a", [{ deliveryId: claimed!.delivery_id, outcome }])
            })
          yield* store.insert(variantOf(fixture, 600, { created_at: fixture.created_at }))
          yield* claimAndRecord(start, {
            delivered: false,
            at: start,
            error: "answered 500",
            retryAt: start + 10,
            status: 500
          })
          yield* claimAndRecord(start + 10, {
            delivered: false,
            at: start + 10,
            error: "connect ECONNREFUSED",
            retryAt: start + 20
          })
          yield* claimAndRecord(start + 20, { delivered: true, at: start + 20, status: 204 })
          yield* store.insert(variantOf(fixture, 601, { created_at: fixture.created_at + 1 }))
          yield* claimAndRecord(start + 30, { delivered: true, at: start + 30, status: 204 })
          const listed = yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: false })
          return {
            seen,
            log: listed.find((delivery) => delivery.quote_id === variantOf(fixture, 600).quote_id)!.attempt_log
          }
        })
      )
      expect(seen).toEqual([undefined, start, start, undefined])
      expect(log).toEqual([
        { at: start, status: 500, error: "answered 500" },
        { at: start + 10, status: undefined, error: "connect ECONNREFUSED" },
        { at: start + 20, status: 204, error: undefined }
      ])
    })

    it("disables a subscription: its pending deliveries dead-lettered, no new event sent to it until it is enabled", async () => {
      const fixture = fixtures[0]!
      const partnerId = fixture.partner_id
      const now = fixture.created_at + 1_000
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(partnerId, "gone"), NO_LIMIT)
          yield* subscriptions.insert(subscription(partnerId, "kept"), NO_LIMIT)
          yield* store.insert(variantOf(fixture, 700, { created_at: fixture.created_at }))
          // fanned out, not sent
          yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 0 })
          const disabled = yield* outbox.disableSubscription("whk_gone", "the endpoint answered 410 Gone", now)
          const again = yield* outbox.disableSubscription("whk_gone", "the endpoint answered 410 Gone", now)
          yield* store.insert(variantOf(fixture, 701, { created_at: fixture.created_at + 1 }))
          const whileDisabled = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
          const listed = yield* subscriptions.subscriptionsOf(partnerId)
          const deadLetters = yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: true })
          const enabled = yield* subscriptions.enable(partnerId, "whk_gone")
          const notTheirs = yield* subscriptions.enable("someone-else", "whk_gone")
          yield* store.insert(variantOf(fixture, 702, { created_at: fixture.created_at + 2 }))
          const afterEnabling = yield* outbox.claimDeliveries({ now, owner: "b", leaseMillis: LEASE, limit: 10 })
          return { disabled, again, whileDisabled, listed, deadLetters, enabled, notTheirs, afterEnabling }
        })
      )
      expect([result.disabled, result.again]).toEqual([true, false])
      expect(result.whileDisabled.map((delivery) => delivery.subscription_id)).toEqual(["whk_kept", "whk_kept"])
      expect(result.listed.map((each) => [each.subscription_id, each.disabled])).toEqual([
        ["whk_gone", { at: now, reason: "the endpoint answered 410 Gone" }],
        ["whk_kept", undefined]
      ])
      expect(result.deadLetters.map((delivery) => [delivery.subscription_id, delivery.last_error])).toEqual([
        ["whk_gone", "the subscription was disabled: the endpoint answered 410 Gone"]
      ])
      expect(Option.map(result.enabled, (each) => each.disabled)).toEqual(Option.some(undefined))
      expect(Option.isNone(result.notTheirs)).toBe(true)
      // enabled: the next quote's event goes to it again (the dead letter waits for a replay)
      expect(
        result.afterEnabling.map((delivery) => [delivery.subscription_id, delivery.event.quote_id]).sort()
      ).toEqual([
        ["whk_gone", variantOf(fixture, 702).quote_id],
        ["whk_kept", variantOf(fixture, 702).quote_id]
      ])
    })

    it("recovers a partner's dead letters since a time, oldest first, a limit at a time, none of a disabled subscription", async () => {
      const fixture = fixtures[0]!
      const partnerId = fixture.partner_id
      const now = fixture.created_at + 10_000
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(partnerId, "up"), NO_LIMIT)
          yield* subscriptions.insert(subscription(partnerId, "gone"), NO_LIMIT)
          // three quotes' deliveries made a second apart, each dead-lettered
          for (let index = 0; index < 3; index++) {
            yield* store.insert(variantOf(fixture, 800 + index, { created_at: fixture.created_at + index }))
            const claimed = yield* outbox.claimDeliveries({
              now: fixture.created_at + index * 1_000,
              owner: "a",
              leaseMillis: LEASE,
              limit: 10
            })
            yield* outbox.recordAttempts(
              "a",
              claimed.map(({ delivery_id }) => ({
                deliveryId: delivery_id,
                outcome: { delivered: false, at: now, error: "answered 500", retryAt: undefined }
              }))
            )
          }
          yield* outbox.disableSubscription("whk_gone", "the endpoint answered 410 Gone", now)
          const goneOne = (yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: true })).find(
            (delivery) => delivery.subscription_id === "whk_gone"
          )!
          const replayGone = yield* outbox.replay(partnerId, goneOne.delivery_id, now)
          const notTheirs = yield* outbox.replaySince("someone-else", 0, now, 10)
          // made at the second quote's time or after: two of "up"'s, the oldest first, one a call
          const first = yield* outbox.replaySince(partnerId, fixture.created_at + 1_000, now, 1)
          const pendingAfterFirst = (yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: false }))
            .filter((delivery) => delivery.state === "pending")
            .map((delivery) => delivery.quote_id)
          const second = yield* outbox.replaySince(partnerId, fixture.created_at + 1_000, now, 1)
          const third = yield* outbox.replaySince(partnerId, fixture.created_at + 1_000, now, 1)
          return { replayGone, notTheirs, first, pendingAfterFirst, second, third }
        })
      )
      expect(result.replayGone).toBe(false)
      expect(result.notTheirs).toEqual({ replayed: 0, more: false })
      expect(result.first).toEqual({ replayed: 1, more: true })
      expect(result.pendingAfterFirst).toEqual([variantOf(fixtures[0]!, 801).quote_id])
      expect(result.second).toEqual({ replayed: 1, more: false })
      expect(result.third).toEqual({ replayed: 0, more: false })
    })

    it("disables for failing too long only while the stored failing_since says so, and keeps the latest attempts", async () => {
      const fixture = fixtures[0]!
      const partnerId = fixture.partner_id
      const start = fixture.created_at + 1_000
      const result = await withTools(({ store, outbox, subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription(partnerId, "flaky"), NO_LIMIT)
          yield* store.insert(variantOf(fixture, 900, { created_at: fixture.created_at }))
          // never failed: nothing stored to say so
          const beforeAnyFailure = yield* outbox.disableSubscription("whk_flaky", "failing", start, start)
          for (let attempt = 0; attempt < EventOutbox.ATTEMPT_LOG_LENGTH + 5; attempt++) {
            const at = start + attempt * 10
            const [claimed] = yield* outbox.claimDeliveries({ now: at, owner: "a", leaseMillis: LEASE, limit: 1 })
            yield* outbox.recordAttempts("a", [
              {
                deliveryId: claimed!.delivery_id,
                outcome: { delivered: false, at, error: `attempt ${attempt}`, retryAt: at + 10 }
              }
            ])
          }
          // failing since `start`: not since before it
          const tooSoon = yield* outbox.disableSubscription("whk_flaky", "failing", start + 500, start - 1)
          const [delivery] = yield* outbox.deliveriesOf(partnerId, { limit: 1, deadLetteredOnly: false })
          const inTime = yield* outbox.disableSubscription("whk_flaky", "failing", start + 500, start)
          return { beforeAnyFailure, tooSoon, inTime, log: delivery!.attempt_log }
        })
      )
      expect([result.beforeAnyFailure, result.tooSoon, result.inTime]).toEqual([false, false, true])
      expect(result.log).toHaveLength(EventOutbox.ATTEMPT_LOG_LENGTH)
      expect(result.log.at(0)!.error).toBe("attempt 5")
      expect(result.log.at(-1)!.error).toBe(`attempt ${EventOutbox.ATTEMPT_LOG_LENGTH + 4}`)
    })

    it("stores a partner's subscription only while it has fewer than the limit; other partners' do not count", async () => {
      const stored = await withTools(({ subscriptions }) =>
        Effect.gen(function* () {
          const answers: Array<boolean> = []
          answers.push(yield* subscriptions.insert(subscription("bob", "b1"), 2))
          for (const id of ["a1", "a2", "a3"]) answers.push(yield* subscriptions.insert(subscription("alice", id), 2))
          yield* subscriptions.remove("alice", "whk_a1")
          answers.push(yield* subscriptions.insert(subscription("alice", "a4"), 2))
          return {
            answers,
            alices: (yield* subscriptions.subscriptionsOf("alice")).map((each) => each.subscription_id)
          }
        })
      )
      expect(stored.answers).toEqual([true, true, true, false, true])
      expect(stored.alices).toEqual(["whk_a2", "whk_a4"])
    })

    it("keeps each partner's subscriptions its own: listing, removing, rotating the secret", async () => {
      const result = await withTools(({ subscriptions }) =>
        Effect.gen(function* () {
          yield* subscriptions.insert(subscription("alice", "a1"), NO_LIMIT)
          yield* subscriptions.insert({ ...subscription("alice", "a2", ["quote.expired"]), created_at: 2 }, NO_LIMIT)
          yield* subscriptions.insert(subscription("bob", "b1"), NO_LIMIT)
          const alices = yield* subscriptions.subscriptionsOf("alice")
          const bobRotatesAlices = yield* subscriptions.rotateSecret("bob", "whk_a1", "whsec_bob")
          const rotated = yield* subscriptions.rotateSecret("alice", "whk_a1", "whsec_new")
          const bobRemovesAlices = yield* subscriptions.remove("bob", "whk_a2")
          return {
            alices,
            bobRotatesAlices,
            rotated,
            bobRemovesAlices,
            after: yield* subscriptions.subscriptionsOf("alice")
          }
        })
      )
      expect(result.alices.map((each) => [each.subscription_id, each.event_types])).toEqual([
        ["whk_a1", ["quote.created", "quote.activated", "quote.expired"]],
        ["whk_a2", ["quote.expired"]]
      ])
      expect(Option.isNone(result.bobRotatesAlices)).toBe(true)
      expect(Option.getOrThrow(result.rotated).secret).toBe("whsec_new")
      expect(result.bobRemovesAlices).toBe(false)
      expect(result.after.map((each) => [each.subscription_id, each.secret])).toEqual([
        ["whk_a1", "whsec_new"],
        ["whk_a2", subscription("alice", "a2").secret]
      ])
    })
  })
}
