/**
 * The dispatcher: a loop, one per service instance, that claims due
 * deliveries from the outbox under a lease, sends them concurrently, and
 * records each outcome — delivered, retried later (the core's schedule), or
 * dead-lettered. It runs beside the request path on its own fiber, so a slow
 * or failing endpoint never holds a request; a database that fails makes it
 * wait and try again, never stop.
 */
import { EventOutbox, type QuoteEvents } from "@kasko/core"
import { DeliverySchedule, type WebhookEndpoints } from "@kasko/core/transport"
import { Clock, Duration, Effect } from "effect"
import { makeThreadSender } from "./ThreadSender.js"
import { type SendOutcome, type SenderOptions, send } from "./WebhookSender.js"

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
  /** Deliveries claimed, and sent concurrently, at once (100 by default). */
  readonly batchSize?: number
  /** Under load, the least time from one round's start to the next's (100 ms by default). */
  readonly busyIntervalMillis?: number
  /** A number in [0, 1) for the retry delay's jitter (Math.random by default). */
  readonly random?: () => number
  /** Told of each attempt's outcome once the round has recorded it in the outbox (metrics). */
  readonly onAttempt?: (event: QuoteEvents.QuoteEvent, outcome: EventOutbox.AttemptOutcome) => void
  /** Sends one attempt (the HTTP sender by default; tests replace it). */
  readonly sender?: (delivery: EventOutbox.ClaimedDelivery, at: number) => Promise<SendOutcome>
}

const USER_AGENT = "kasko-webhooks/1 (+https://www.standardwebhooks.com)"
const DEFAULT_BATCH_SIZE = 100

const senderOptionsOf = (options: DispatcherOptions): SenderOptions => ({
  timeoutMillis: options.timeoutMillis ?? 5_000,
  policy: options.policy,
  userAgent: USER_AGENT
})

/** One round: claim what is due, attempt each, record the outcomes. Answers how many it claimed. */
export const dispatchOnce = (options: DispatcherOptions): Effect.Effect<number, never, EventOutbox.EventOutbox> =>
  Effect.gen(function* () {
    const outbox = yield* EventOutbox.EventOutbox
    const leaseMillis = options.leaseMillis ?? 60_000
    const random = options.random ?? Math.random
    const senderOptions = senderOptionsOf(options)
    const sender = options.sender ?? ((delivery, at) => send(delivery, at, senderOptions))
    const now = yield* Clock.currentTimeMillis
    const claimed = yield* outbox.claimDeliveries({
      now,
      owner: options.owner,
      leaseMillis,
      limit: options.batchSize ?? DEFAULT_BATCH_SIZE
    })
    const attempts = yield* Effect.forEach(
      claimed,
      (delivery) =>
        Effect.gen(function* () {
          const at = yield* Clock.currentTimeMillis
          const outcome = yield* Effect.promise(() => sender(delivery, at))
          const recorded: EventOutbox.AttemptOutcome = outcome.delivered
            ? { delivered: true, at, status: outcome.status }
            : {
                delivered: false,
                at,
                error: outcome.error,
                retryAt: retryAtAfter(delivery.attempts + 1, delivery.first_attempt_at ?? at, at, random())
              }
          return { deliveryId: delivery.delivery_id, event: delivery.event, outcome: recorded }
        }),
      { concurrency: "unbounded" }
    )
    // the round's outcomes in one write: a busy outbox costs one commit per round, not one per delivery
    if (attempts.length > 0) yield* outbox.recordAttempts(options.owner, attempts)
    // told once recorded: an attempt counted as delivered is one the outbox no longer holds pending
    for (const attempt of attempts) tell(options.onAttempt, attempt.event, attempt.outcome)
    return claimed.length
  }).pipe(
    // the outbox unreachable: nothing claimed this round, the loop tries again after its pause
    Effect.catchTag("StorageUnavailable", () => Effect.succeed(0))
  )

/** Tells an observer of an attempt; an observer that throws must not stop the deliveries. */
const tell = (
  onAttempt: DispatcherOptions["onAttempt"],
  event: QuoteEvents.QuoteEvent,
  outcome: EventOutbox.AttemptOutcome
) => {
  try {
    onAttempt?.(event, outcome)
  } catch {
    // an observer's own failure (metrics) is not the delivery's
  }
}

const retryAtAfter = (
  attempts: number,
  firstAttemptAt: number,
  failedAt: number,
  random: number
): number | undefined => {
  const next = DeliverySchedule.afterFailure(attempts, firstAttemptAt, failedAt, random)
  return "retryAt" in next ? next.retryAt : undefined
}

/**
 * Dispatches until interrupted. Attempts are made on a sending thread of
 * their own (unless `sender` replaces it). A full batch goes on to the next
 * round once `busyIntervalMillis` has passed since it began — under load the
 * outbox's claims and records are a few writes a second on the service's
 * event loop, not one pair per handful of events — otherwise it pauses a poll
 * interval.
 */
export const runDispatcher = (options: DispatcherOptions): Effect.Effect<never, never, EventOutbox.EventOutbox> => {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
  const pause = Duration.millis(options.pollMillis ?? 1_000)
  const busyInterval = options.busyIntervalMillis ?? 100
  const rounds = (sender: NonNullable<DispatcherOptions["sender"]>) =>
    Effect.forever(
      Effect.gen(function* () {
        const began = yield* Clock.currentTimeMillis
        const claimed = yield* dispatchOnce({ ...options, sender })
        if (claimed < batchSize) return yield* Effect.sleep(pause)
        const rest = busyInterval - ((yield* Clock.currentTimeMillis) - began)
        if (rest > 0) yield* Effect.sleep(Duration.millis(rest))
      })
    )
  if (options.sender !== undefined) return rounds(options.sender)
  return Effect.scoped(
    Effect.flatMap(
      Effect.acquireRelease(
        Effect.sync(() => makeThreadSender(senderOptionsOf(options))),
        (thread) => Effect.promise(thread.close)
      ),
      (thread) => rounds(thread.send)
    )
  )
}
