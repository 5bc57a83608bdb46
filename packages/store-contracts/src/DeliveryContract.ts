/**
 * Webhook deliveries: each event goes to the subscriptions of its partner that
 * want its type; one dispatcher at a time holds a delivery (leases); outcomes
 * are recorded by the lease's holder only; a failed delivery is retried when
 * due, dead-lettered and replayed; a quote's events reach an endpoint in order.
 */
import type { QuoteStore } from "@kasko/core"
import { Effect } from "effect"
import { beforeAll, expect, it } from "vitest"
import { DAY, LEASE, type MakeStores, NO_LIMIT, runWithTools, subscription } from "./ContractHarness.js"
import { makeFixtures } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote

/** The cases of the deliveries, in the describe block that calls it. */
export const deliveryCases = (makeLayer: MakeStores): void => {
  let fixtures: ReadonlyArray<StoredQuote> = []
  beforeAll(async () => {
    fixtures = await makeFixtures()
  })
  const withTools = runWithTools(makeLayer)

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
    expect(result.othersReplay).toEqual({ _tag: "NotFound" })
    expect(result.replayed).toEqual({ _tag: "Replayed" })
    // replayed, its retry window starts again
    expect(result.again).toMatchObject({ attempts: 2, first_attempt_at: undefined })
  })

  it("replays only a dead letter: tells the partner's delivery that is not one, with its state, from no delivery at all", async () => {
    const [first, second] = fixtures
    const partnerId = first!.partner_id
    const now = Math.max(first!.created_at, second!.created_at)
    const result = await withTools(({ store, outbox, subscriptions }) =>
      Effect.gen(function* () {
        yield* subscriptions.insert(subscription(partnerId, "states", ["quote.created"]), NO_LIMIT)
        yield* store.insert(first!)
        yield* store.insert({ ...second!, partner_id: partnerId })
        const [delivered, pending] = yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
        yield* outbox.recordAttempt(delivered!.delivery_id, "a", { delivered: true, at: now, status: 204 })
        const before = yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: false })
        const outcomes = {
          delivered: yield* outbox.replay(partnerId, delivered!.delivery_id, now + 1),
          pending: yield* outbox.replay(partnerId, pending!.delivery_id, now + 1),
          unknown: yield* outbox.replay(partnerId, "dlv_unknown", now + 1),
          anotherPartners: yield* outbox.replay("someone-else", delivered!.delivery_id, now + 1)
        }
        const after = yield* outbox.deliveriesOf(partnerId, { limit: 10, deadLetteredOnly: false })
        return { outcomes, before, after }
      })
    )
    expect(result.outcomes).toEqual({
      delivered: { _tag: "NotReplayable", state: "delivered", subscription_id: "whk_states" },
      pending: { _tag: "NotReplayable", state: "pending", subscription_id: "whk_states" },
      unknown: { _tag: "NotFound" },
      anotherPartners: { _tag: "NotFound" }
    })
    // refused, each stays as it was
    expect(result.after).toEqual(result.before)
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
}
