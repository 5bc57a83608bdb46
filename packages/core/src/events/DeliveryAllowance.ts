/**
 * Which due deliveries a claim takes, the same in every outbox, so that one
 * partner's backlog or hanging endpoints cannot hold back another's
 * deliveries. Two sweeps over the partners with due deliveries, those with
 * fewest attempts in flight first (then the one whose oldest due delivery has
 * waited longest):
 *
 * 1. its fair share: up to `perPartnerLimit` of a partner's deliveries at once,
 *    and `perSubscriptionLimit` to one of its endpoints, those in flight counted;
 * 2. what is still free, but for `reserved` slots, goes to whoever has more
 *    due, to the endpoints the dispatcher has seen answer in time
 *    (`fastSubscriptions`); every other keeps to its share.
 *
 * So a healthy endpoint may use nearly every slot once it has answered, an
 * endpoint that hangs never holds more than its share, a partner that turns
 * up finds a reserved slot free, and slots that free up go first to the
 * partners that had none.
 * @module
 */
import type { DeliveryClaim } from "../ports/EventOutbox.js"

/**
 * Deliveries a claim makes from new events, in all and from one partner's (at least one event's): fanning out
 * stays a few milliseconds of a claim whatever a partner's backlog, and partners take turns, the one whose
 * oldest new event has waited longest first. A partner's share is FAN_OUT_PER_PARTNER, or more when fewer
 * partners have new events: a lone partner may use the whole claim's.
 */
const FAN_OUT_PER_PARTNER = 100
/** The most deliveries one claim makes from new events, shared among the partners that have some. */
export const FAN_OUT_PER_CLAIM = 500

/** The deliveries a claim may make from one partner's new events when `partners` have some. */
export const fanOutShare = (partners: number): number =>
  Math.max(FAN_OUT_PER_PARTNER, Math.floor(FAN_OUT_PER_CLAIM / Math.max(1, partners)))

/** A partner with due deliveries, and its candidates: its due deliveries, oldest first. */
interface DuePartner<D> {
  readonly partner_id: string
  /** When its oldest due delivery became due (epoch ms). */
  readonly oldest: number
  readonly candidates: ReadonlyArray<D>
}

/** Of each partner's due deliveries, those the claim takes (at most `limit` in all), in the order taken. */
export const choose = <D extends { readonly subscription_id: string }>(
  claim: DeliveryClaim,
  partners: ReadonlyArray<DuePartner<D>>
): ReadonlyArray<D> => {
  const perPartner = claim.perPartnerLimit ?? claim.limit
  const perSubscription = claim.perSubscriptionLimit ?? claim.limit
  const inFlightOf = (counts: ReadonlyMap<string, number> | undefined, key: string) => counts?.get(key) ?? 0
  const inTurn = [...partners].sort(
    (a, b) =>
      inFlightOf(claim.inFlight?.partners, a.partner_id) - inFlightOf(claim.inFlight?.partners, b.partner_id) ||
      a.oldest - b.oldest ||
      (a.partner_id < b.partner_id ? -1 : a.partner_id > b.partner_id ? 1 : 0)
  )
  const taken = new Set<D>()
  const takenOfSubscription = new Map<string, number>()
  const take = (candidate: D) => {
    taken.add(candidate)
    takenOfSubscription.set(candidate.subscription_id, (takenOfSubscription.get(candidate.subscription_id) ?? 0) + 1)
  }
  // 1. fair shares
  for (const partner of inTurn) {
    let share = perPartner - inFlightOf(claim.inFlight?.partners, partner.partner_id)
    for (const candidate of partner.candidates) {
      if (share <= 0 || taken.size >= claim.limit) break
      const ofSubscription =
        inFlightOf(claim.inFlight?.subscriptions, candidate.subscription_id) +
        (takenOfSubscription.get(candidate.subscription_id) ?? 0)
      if (ofSubscription >= perSubscription) continue
      take(candidate)
      share--
    }
  }
  // 2. what is left but the reserve, to endpoints known to answer in time
  const unreserved = claim.limit - (claim.reserved ?? 0)
  for (const partner of inTurn) {
    for (const candidate of partner.candidates) {
      if (taken.size >= unreserved) break
      if (taken.has(candidate)) continue
      if (claim.fastSubscriptions !== undefined && !claim.fastSubscriptions.has(candidate.subscription_id)) continue
      if (claim.slowSubscriptions?.has(candidate.subscription_id) === true) continue
      take(candidate)
    }
  }
  return [...taken]
}

/**
 * How many of a slow endpoint's due deliveries an outbox reads for a claim: it takes no more than its share.
 * An outbox reads a slow endpoint's apart from its partner's others — a backlog to an endpoint that hangs,
 * due all along, would otherwise fill the head of the partner's line and hide every other endpoint's.
 */
export const candidatesPerSlowSubscription = (claim: DeliveryClaim): number => claim.perSubscriptionLimit ?? claim.limit

/** Due deliveries in the order they are served: the longest due first, then by their event's position. */
export const inOrder = <D extends { readonly next_attempt_at: unknown; readonly event_position: unknown }>(
  rows: ReadonlyArray<D>
): ReadonlyArray<D> =>
  [...rows].sort(
    (a, b) =>
      Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.event_position) - Number(b.event_position)
  )

/**
 * How many of each partner's due deliveries an outbox reads as candidates for a claim, when `duePartners`
 * have some: enough for a lone partner to fill the claim twice over, at least a partner's share, so the rows
 * a claim reads stay about `2 × limit` however many partners wait.
 */
export const candidatesPerPartner = (claim: DeliveryClaim, duePartners: number): number =>
  Math.max(claim.perPartnerLimit ?? claim.limit, Math.ceil((2 * claim.limit) / Math.max(1, duePartners)))
