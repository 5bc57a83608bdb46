/**
 * The dispatcher: a loop, one per service instance, that claims due
 * deliveries from the outbox under a lease, sends them, and records each
 * outcome — delivered, retried later (the core's schedule), or dead-lettered.
 * It runs beside the request path on its own fiber, so a slow or failing
 * endpoint never holds a request; a database that fails makes it wait and try
 * again, never stop.
 *
 * Attempts are not sent in rounds that wait for their slowest: each attempt
 * holds one of a bounded number of slots until its endpoint answers or times
 * out, and every pass of the loop records what has finished (one write) and
 * claims as much as the free slots allow. No partner holds more than its share
 * of the slots, nor an endpoint more than its own, and a partner with fewer
 * attempts in flight is served first: endpoints that hang hold back their own
 * partner's deliveries, for one attempt timeout at most, and nobody else's.
 * @module
 */
import { EventOutbox } from "@kasko/core"
import { DeliverySchedule, type WebhookEndpoints } from "@kasko/core/transport"
import { Clock, Duration, Effect, Queue } from "effect"
import { makeThreadSender } from "./ThreadSender.js"
import type { Wakeups } from "./Wakeups.js"
import { type SendOutcome, type SenderOptions, send } from "./WebhookSender.js"

/** How a dispatcher claims and sends: its lease owner, the endpoints it accepts, its timeouts, pauses and batch sizes. */
export interface DispatcherOptions {
  /** Names this instance's leases: two instances must differ. */
  readonly owner: string
  readonly policy: WebhookEndpoints.EndpointPolicy
  /** How long an endpoint has to answer (5 s by default). */
  readonly timeoutMillis?: number
  /** How long a claimed delivery is this instance's before another may take it (60 s by default). */
  readonly leaseMillis?: number
  /** Pause between claims when nothing was due (1 s by default). */
  readonly pollMillis?: number
  /** Attempts in flight at once, in all (100 by default); `dispatchOnce` claims this many. */
  readonly batchSize?: number
  /** One partner's attempts in flight at once (10 by default). */
  readonly perPartnerInFlight?: number
  /** One endpoint's attempts in flight at once (4 by default). */
  readonly perSubscriptionInFlight?: number
  /** The least time from one claim to the next (50 ms by default): a commit wakes the dispatcher no sooner. */
  readonly busyIntervalMillis?: number
  /** A number in [0, 1) for the retry delay's jitter (Math.random by default). */
  readonly random?: () => number
  /**
   * Told of each attempt's outcome once it is recorded in the outbox (metrics, the failure log), with when the
   * endpoint's answer (or the failure) came back.
   */
  readonly onAttempt?: (
    delivery: EventOutbox.ClaimedDelivery,
    outcome: EventOutbox.AttemptOutcome,
    answeredAt: number
  ) => void
  /**
   * Told when an attempt's answer disabled its subscription (410 Gone, or failing for 5 days: the core's
   * DeliverySchedule.disablingOf), once the outbox has disabled it.
   */
  readonly onDisabled?: (delivery: EventOutbox.ClaimedDelivery, reason: string, at: number) => void
  /**
   * Poked when this instance commits events (the service pokes from its quote store): the dispatcher claims
   * then rather than at the next poll, never sooner than `busyIntervalMillis` after its pass before.
   */
  readonly wakeups?: Wakeups
  /** Sends one attempt (the HTTP sender by default; tests replace it). */
  readonly sender?: (delivery: EventOutbox.ClaimedDelivery, at: number) => Promise<SendOutcome>
}

const USER_AGENT = "kasko-webhooks/1 (+https://www.standardwebhooks.com)"

const DEFAULT_TIMEOUT_MILLIS = 5_000

const senderOptionsOf = (options: DispatcherOptions): SenderOptions => ({
  timeoutMillis: options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS,
  policy: options.policy,
  userAgent: USER_AGENT
})

/** An attempt whose answer came back: what to record, and when it came. */
interface FinishedAttempt {
  readonly delivery: EventOutbox.ClaimedDelivery
  readonly outcome: EventOutbox.AttemptOutcome
  readonly answeredAt: number
  /**
   * Why the answer disables the subscription, when it does; for failing too long, only while the store still
   * has it failing since that long ago (this delivery's read of it may be stale).
   */
  readonly disables: DeliverySchedule.Disabling | undefined
}

const DEFAULTS = { batchSize: 100, perPartnerInFlight: 10, perSubscriptionInFlight: 4, leaseMillis: 60_000 }

/** Makes one attempt at a claimed delivery and says what to record: delivered, or when to try again. */
const attemptOf = (
  delivery: EventOutbox.ClaimedDelivery,
  sender: NonNullable<DispatcherOptions["sender"]>,
  random: () => number
): Effect.Effect<FinishedAttempt> =>
  Effect.gen(function* () {
    const at = yield* Clock.currentTimeMillis
    const sent = yield* Effect.promise(() => sender(delivery, at))
    const answeredAt = yield* Clock.currentTimeMillis
    const outcome: EventOutbox.AttemptOutcome = sent.delivered
      ? { delivered: true, at, status: sent.status }
      : {
          delivered: false,
          at,
          error: sent.error,
          retryAt: retryAtAfter(
            delivery.attempts + 1,
            delivery.first_attempt_at ?? at,
            at,
            random(),
            // the endpoint's Retry-After counts from its answer
            DeliverySchedule.retryAfterMillisOf(sent.retryAfter, answeredAt) + (answeredAt - at)
          ),
          ...(sent.status === undefined ? {} : { status: sent.status })
        }
    return {
      delivery,
      outcome,
      answeredAt,
      disables: outcome.delivered ? undefined : DeliverySchedule.disablingOf(sent.status, delivery.failing_since, at)
    }
  })

/** Records finished attempts in one write, then tells the observer of each; answers whether the write went through. */
const recordFinished = (
  outbox: EventOutbox.EventOutbox["Service"],
  options: DispatcherOptions,
  finished: ReadonlyArray<FinishedAttempt>
): Effect.Effect<boolean> =>
  finished.length === 0
    ? Effect.succeed(true)
    : outbox
        .recordAttempts(
          options.owner,
          finished.map(({ delivery, outcome }) => ({ deliveryId: delivery.delivery_id, outcome }))
        )
        .pipe(
          // told once recorded: an attempt counted as delivered is one the outbox no longer holds pending
          Effect.tap(() =>
            Effect.sync(() => {
              for (const { delivery, outcome, answeredAt } of finished)
                tell(options.onAttempt, delivery, outcome, answeredAt)
            })
          ),
          Effect.tap(() => disableWhereAnswered(outbox, options, finished)),
          Effect.as(true),
          Effect.catchTag("StorageUnavailable", () => Effect.succeed(false))
        )

/** Disables the subscriptions whose answers said to (once each), and tells the observer of each it disabled. */
const disableWhereAnswered = (
  outbox: EventOutbox.EventOutbox["Service"],
  options: DispatcherOptions,
  finished: ReadonlyArray<FinishedAttempt>
): Effect.Effect<void> => {
  const disabling = new Map<
    string,
    { delivery: EventOutbox.ClaimedDelivery; reason: string; at: number; failingSinceAtOrBefore?: number }
  >()
  for (const { delivery, disables, outcome } of finished)
    if (disables !== undefined) disabling.set(delivery.subscription_id, { delivery, at: outcome.at, ...disables })
  return Effect.forEach(
    disabling.values(),
    ({ delivery, reason, at, failingSinceAtOrBefore }) =>
      outbox.disableSubscription(delivery.subscription_id, reason, at, failingSinceAtOrBefore).pipe(
        Effect.tap((disabled) =>
          Effect.sync(() => {
            try {
              if (disabled) options.onDisabled?.(delivery, reason, at)
            } catch {
              // an observer's own failure (the log, metrics) is not the dispatcher's
            }
          })
        ),
        // not disabled this round: the endpoint's next failure disables it
        Effect.catchTag("StorageUnavailable", () => Effect.succeed(false))
      ),
    { discard: true }
  )
}

const senderOf = (options: DispatcherOptions): NonNullable<DispatcherOptions["sender"]> => {
  const senderOptions = senderOptionsOf(options)
  return options.sender ?? ((delivery, at) => send(delivery, at, senderOptions))
}

/**
 * One round, for tests and one-off use: claim what is due (up to `batchSize`), attempt each, wait for all,
 * record the outcomes. Answers how many it claimed.
 */
export const dispatchOnce = (options: DispatcherOptions): Effect.Effect<number, never, EventOutbox.EventOutbox> =>
  Effect.gen(function* () {
    const outbox = yield* EventOutbox.EventOutbox
    const sender = senderOf(options)
    const claimed = yield* outbox.claimDeliveries({
      now: yield* Clock.currentTimeMillis,
      owner: options.owner,
      leaseMillis: options.leaseMillis ?? DEFAULTS.leaseMillis,
      limit: options.batchSize ?? DEFAULTS.batchSize
    })
    const finished = yield* Effect.forEach(
      claimed,
      (delivery) => attemptOf(delivery, sender, options.random ?? Math.random),
      {
        concurrency: "unbounded"
      }
    )
    yield* recordFinished(outbox, options, finished)
    return claimed.length
  }).pipe(
    // the outbox unreachable: nothing claimed this round
    Effect.catchTag("StorageUnavailable", () => Effect.succeed(0))
  )

/**
 * What this dispatcher has claimed and not recorded yet, counted the way claims are limited, and what it has
 * seen of the endpoints: an attempt that took, or has been under way, longer than `slowMillis` marks its
 * endpoint slow; one answered in time (2xx or not) marks it fast. Only fast endpoints may take more than
 * their share of the slots; an endpoint not seen yet keeps to its share until it has answered.
 */
const makeInFlight = (slowMillis: number) => {
  const partners = new Map<string, number>()
  const subscriptions = new Map<string, number>()
  const startedAt = new Map<string, { readonly subscription_id: string; readonly at: number }>()
  const slow = new Set<string>()
  const fast = new Set<string>()
  const move = (counts: Map<string, number>, key: string, by: number) => {
    const count = (counts.get(key) ?? 0) + by
    if (count === 0) counts.delete(key)
    else counts.set(key, count)
  }
  const seen = (subscriptionId: string, inTime: boolean) => {
    if (inTime) {
      slow.delete(subscriptionId)
      fast.add(subscriptionId)
    } else {
      fast.delete(subscriptionId)
      slow.add(subscriptionId)
    }
    // what is remembered stays bounded: an endpoint forgotten is seen again by its next attempt
    if (slow.size + fast.size > 100_000) {
      slow.clear()
      fast.clear()
    }
  }
  return {
    view: { partners, subscriptions } as EventOutbox.DeliveriesInFlight,
    total: () => startedAt.size,
    add: (delivery: EventOutbox.ClaimedDelivery, at: number) => {
      startedAt.set(delivery.delivery_id, { subscription_id: delivery.subscription_id, at })
      move(partners, delivery.event.partner_id, 1)
      move(subscriptions, delivery.subscription_id, 1)
    },
    remove: ({ delivery, outcome, answeredAt }: FinishedAttempt) => {
      startedAt.delete(delivery.delivery_id)
      move(partners, delivery.event.partner_id, -1)
      move(subscriptions, delivery.subscription_id, -1)
      seen(delivery.subscription_id, answeredAt - outcome.at <= slowMillis)
    },
    /** The endpoints seen to be slow, or with an attempt under way for longer than `slowMillis`, at `now`. */
    slowAt: (now: number): ReadonlySet<string> => {
      for (const { subscription_id, at } of startedAt.values()) if (now - at > slowMillis) seen(subscription_id, false)
      return slow
    },
    fast: (): ReadonlySet<string> => fast
  }
}

/** Tells an observer of an attempt; an observer that throws must not stop the deliveries. */
const tell = (
  onAttempt: DispatcherOptions["onAttempt"],
  delivery: EventOutbox.ClaimedDelivery,
  outcome: EventOutbox.AttemptOutcome,
  answeredAt: number
) => {
  try {
    onAttempt?.(delivery, outcome, answeredAt)
  } catch {
    // an observer's own failure (metrics) is not the delivery's
  }
}

const retryAtAfter = (
  attempts: number,
  firstAttemptAt: number,
  failedAt: number,
  random: number,
  retryAfterMillis: number
): number | undefined => {
  const next = DeliverySchedule.afterFailure(attempts, firstAttemptAt, failedAt, random, retryAfterMillis)
  return "retryAt" in next ? next.retryAt : undefined
}

/**
 * Dispatches until interrupted. Attempts are made on a sending thread of
 * their own (unless `sender` replaces it). Each pass records what finished
 * and claims for the free slots; it comes again when an attempt finishes, a
 * commit on this instance wakes it, or the poll interval has passed, and
 * never sooner than `busyIntervalMillis` after the pass before — under load
 * the outbox's claims and records are a score of writes a second on the
 * service's event loop, not one pair per handful of events. Interrupted, its attempts under way are dropped unrecorded:
 * their leases lapse and they are sent again (at least once).
 */
export const runDispatcher = (options: DispatcherOptions): Effect.Effect<never, never, EventOutbox.EventOutbox> => {
  const capacity = options.batchSize ?? DEFAULTS.batchSize
  const perPartnerLimit = Math.min(capacity, options.perPartnerInFlight ?? DEFAULTS.perPartnerInFlight)
  const perSubscriptionLimit = Math.min(
    perPartnerLimit,
    options.perSubscriptionInFlight ?? DEFAULTS.perSubscriptionInFlight
  )
  const leaseMillis = options.leaseMillis ?? DEFAULTS.leaseMillis
  const pause = options.pollMillis ?? 1_000
  const busyInterval = options.busyIntervalMillis ?? 50
  const random = options.random ?? Math.random
  const wakeups = options.wakeups
  // an endpoint that takes longer than this is held to its share of the slots
  const slowMillis = Math.min(1_000, (options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS) / 2)

  const passes = (sender: NonNullable<DispatcherOptions["sender"]>) =>
    Effect.gen(function* () {
      const outbox = yield* EventOutbox.EventOutbox
      const finished = yield* Queue.unbounded<FinishedAttempt>()
      const inFlight = makeInFlight(slowMillis)
      let unrecorded: Array<FinishedAttempt> = []
      return yield* Effect.forever(
        Effect.gen(function* () {
          const began = yield* Clock.currentTimeMillis
          unrecorded = unrecorded.concat(yield* Queue.clear(finished))
          // a write that fails is tried again next pass; the slots stay taken until it goes through
          if (yield* recordFinished(outbox, options, unrecorded)) {
            for (const attempt of unrecorded) inFlight.remove(attempt)
            unrecorded = []
          }
          // with no slot free it still claims, for nothing: the claim fans out new events all the same
          const free = Math.max(0, capacity - inFlight.total())
          const claimed = yield* outbox
            .claimDeliveries({
              now: began,
              owner: options.owner,
              leaseMillis,
              limit: free,
              perPartnerLimit,
              perSubscriptionLimit,
              inFlight: inFlight.view,
              slowSubscriptions: inFlight.slowAt(began),
              fastSubscriptions: inFlight.fast(),
              // a partner's share of the slots stays free for whoever turns up with nothing in flight
              reserved: perPartnerLimit
            })
            .pipe(Effect.catchTag("StorageUnavailable", () => Effect.succeed([])))
          for (const delivery of claimed) {
            inFlight.add(delivery, began)
            yield* Effect.forkChild(
              Effect.flatMap(attemptOf(delivery, sender, random), (done) => Queue.offer(finished, done))
            )
          }
          // more may be due when the claim took all it could: go on soon; otherwise wait for an answer, an event
          // written on this instance, or the poll (events other instances write)
          if (claimed.length === 0 || claimed.length < free)
            yield* Effect.raceAll([
              Effect.sleep(Duration.millis(pause)),
              Effect.flatMap(Queue.take(finished), (first) => Queue.offer(finished, first)),
              ...(wakeups === undefined ? [] : [Effect.promise((signal) => wakeups.next(signal))])
            ])
          const rest = busyInterval - ((yield* Clock.currentTimeMillis) - began)
          if (rest > 0) yield* Effect.sleep(Duration.millis(rest))
        })
      )
    })

  if (options.sender !== undefined) return passes(options.sender)
  return Effect.scoped(
    Effect.flatMap(
      Effect.acquireRelease(
        Effect.sync(() => makeThreadSender(senderOptionsOf(options))),
        (thread) => Effect.promise(thread.close)
      ),
      (thread) => passes(thread.send)
    )
  )
}
