/**
 * Webhook subscriptions in the outbox: an event goes to the subscriptions of
 * its time; an endpoint's failing since, attempt log and disabling; a
 * partner's dead letters recovered; the limit per partner; each partner's
 * subscriptions its own.
 */
import { EventOutbox, type QuoteStore } from "@kasko/core"
import { Sandbox } from "@kasko/core/administration"
import { Effect, Option } from "effect"
import { beforeAll, expect, it } from "vitest"
import { LEASE, type MakeStores, NO_LIMIT, runWithTools, subscription } from "./ContractHarness.js"
import { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote

/** The cases of the subscriptions, in the describe block that calls it. */
export const subscriptionCases = (makeLayer: MakeStores): void => {
  let fixtures: ReadonlyArray<StoredQuote> = []
  beforeAll(async () => {
    fixtures = await makeFixtures()
  })
  const withTools = runWithTools(makeLayer)

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

  it("sends a sandbox quote's events only to the sandbox's subscriptions, and a production quote's only to production's", async () => {
    const [first, second] = fixtures
    const partnerId = first!.partner_id
    const sandbox = Sandbox.sandboxOwnerOf(partnerId)
    const now = Math.max(first!.created_at, second!.created_at)
    const claimed = await withTools(({ store, outbox, subscriptions }) =>
      Effect.gen(function* () {
        yield* subscriptions.insert(subscription(partnerId, "production"), NO_LIMIT)
        yield* subscriptions.insert(subscription(sandbox, "sandbox"), NO_LIMIT)
        yield* store.insert(first!)
        yield* store.insert({ ...second!, partner_id: sandbox })
        return yield* outbox.claimDeliveries({ now, owner: "a", leaseMillis: LEASE, limit: 10 })
      })
    )
    const sent = claimed
      .map((delivery) => [delivery.url, delivery.event.quote_id, JSON.parse(delivery.event.payload).environment])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
    expect(sent).toEqual([
      ["https://hooks.example/production", first!.quote_id, undefined],
      ["https://hooks.example/sandbox", second!.quote_id, "sandbox"]
    ])
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
    expect(result.afterEnabling.map((delivery) => [delivery.subscription_id, delivery.event.quote_id]).sort()).toEqual([
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
    // a dead letter still, but its subscription's: it waits until that is enabled
    expect(result.replayGone).toEqual({ _tag: "NotReplayable", state: "dead_lettered", subscription_id: "whk_gone" })
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
}
