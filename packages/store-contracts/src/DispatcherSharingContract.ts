/**
 * One dispatcher shared among partners: each partner's share first, then
 * what is free to endpoints known to answer in time; a healthy endpoint's
 * delivery found behind a slow one's backlog; a quiet partner's new event
 * claimed however many a busy partner has waiting.
 */
import { DeliveryAllowance } from "@kasko/core/storage"
import type { EventOutbox, QuoteStore } from "@kasko/core"
import { Effect } from "effect"
import { beforeAll, expect, it } from "vitest"
import { LEASE, type MakeStores, NO_LIMIT, runWithTools, subscription, type Tools } from "./ContractHarness.js"
import { makeFixtures, variantOf } from "./StoredQuoteFixtures.js"

type StoredQuote = QuoteStore.StoredQuote

/** The cases of sharing the dispatcher, in the describe block that calls it. */
export const dispatcherSharingCases = (makeLayer: MakeStores): void => {
  let fixtures: ReadonlyArray<StoredQuote> = []
  beforeAll(async () => {
    fixtures = await makeFixtures()
  })
  const withTools = runWithTools(makeLayer)

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
}
