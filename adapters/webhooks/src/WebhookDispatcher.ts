/**
 * The dispatcher: a loop, one per service instance, that claims due
 * deliveries from the outbox under a lease, sends them concurrently, and
 * records each outcome — delivered, retried later (the core's schedule), or
 * dead-lettered. It runs beside the request path on its own fiber, so a slow
 * or failing endpoint never holds a request; a database that fails makes it
 * wait and try again, never stop. When nothing is due it sleeps a poll
 * interval; when a batch was full it goes straight on.
 */
import { EventOutbox } from "@kasko/core"
import { DeliverySchedule, type WebhookEndpoints } from "@kasko/core/transport"
import { Clock, Duration, Effect } from "effect"
import { type SendOutcome, send } from "./WebhookSender.js"

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
  /** Deliveries claimed, and sent concurrently, at once (20 by default). */
  readonly batchSize?: number
  /** A number in [0, 1) for the retry delay's jitter (Math.random by default). */
  readonly random?: () => number
  /** Sends one attempt (the HTTP sender by default; tests replace it). */
  readonly sender?: (delivery: EventOutbox.ClaimedDelivery, at: number) => Promise<SendOutcome>
}

const USER_AGENT = "kasko-webhooks/1 (+https://www.standardwebhooks.com)"

/** One round: claim what is due, attempt each, record the outcomes. Answers how many it claimed. */
export const dispatchOnce = (options: DispatcherOptions): Effect.Effect<number, never, EventOutbox.EventOutbox> =>
  Effect.gen(function* () {
    const outbox = yield* EventOutbox.EventOutbox
    const timeoutMillis = options.timeoutMillis ?? 5_000
    const leaseMillis = options.leaseMillis ?? 60_000
    const random = options.random ?? Math.random
    const sender =
      options.sender ??
      ((delivery, at) => send(delivery, at, { timeoutMillis, policy: options.policy, userAgent: USER_AGENT }))
    const now = yield* Clock.currentTimeMillis
    const claimed = yield* outbox.claimDeliveries({
      now,
      owner: options.owner,
      leaseMillis,
      limit: options.batchSize ?? 20
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
          return { deliveryId: delivery.delivery_id, outcome: recorded }
        }),
      { concurrency: "unbounded" }
    )
    // the round's outcomes in one write: a busy outbox costs one commit per round, not one per delivery
    if (attempts.length > 0) yield* outbox.recordAttempts(options.owner, attempts)
    return claimed.length
  }).pipe(
    // the outbox unreachable: nothing claimed this round, the loop tries again after its pause
    Effect.catchTag("StorageUnavailable", () => Effect.succeed(0))
  )

const retryAtAfter = (
  attempts: number,
  firstAttemptAt: number,
  failedAt: number,
  random: number
): number | undefined => {
  const next = DeliverySchedule.afterFailure(attempts, firstAttemptAt, failedAt, random)
  return "retryAt" in next ? next.retryAt : undefined
}

/** Dispatches until interrupted: a full batch goes straight on, otherwise it pauses a poll interval. */
export const runDispatcher = (options: DispatcherOptions): Effect.Effect<never, never, EventOutbox.EventOutbox> => {
  const batchSize = options.batchSize ?? 20
  const pause = Duration.millis(options.pollMillis ?? 1_000)
  return Effect.forever(
    Effect.flatMap(dispatchOnce(options), (claimed) => (claimed < batchSize ? Effect.sleep(pause) : Effect.void))
  )
}
