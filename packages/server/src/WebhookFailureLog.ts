/**
 * A failing webhook endpoint, told to the operator: a warn line with the reason when an attempt fails, an error
 * line when a delivery is dead-lettered, each at most once a minute per endpoint and saying how many failures it
 * stands for. An endpoint the service cannot reach fails hundreds of times a minute under load: every failure
 * logged would drown the log, none logged left it visible only in `kasko webhooks deliveries`.
 */
import type { EventOutbox } from "@kasko/core"
import type { Logger } from "pino"

const ONE_MINUTE = 60_000
// endpoints remembered at once: past it, those not logged within the interval are forgotten
const REMEMBERED = 10_000

/** The endpoint without its query: a partner may put a token there, and the log is the operator's. */
const endpointOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return url
  }
}

/** An observer of the dispatcher's attempts (its `onAttempt`) that logs failures, as above. */
export const webhookFailureLogOf = (logger: Logger, intervalMillis = ONE_MINUTE) => {
  const lastLines = new Map<string, { at: number; unlogged: number }>()
  return (delivery: EventOutbox.ClaimedDelivery, outcome: EventOutbox.AttemptOutcome, answeredAt: number): void => {
    if (outcome.delivered) return
    const deadLettered = outcome.retryAt === undefined
    const key = `${deadLettered ? "dead" : "failed"} ${delivery.subscription_id}`
    const last = lastLines.get(key)
    if (last !== undefined && answeredAt - last.at < intervalMillis) {
      last.unlogged++
      return
    }
    if (lastLines.size >= REMEMBERED) {
      for (const [remembered, line] of lastLines)
        if (answeredAt - line.at >= intervalMillis) lastLines.delete(remembered)
      // every one logged within the minute: forget them all (each logs once more) rather than grow
      if (lastLines.size >= REMEMBERED) lastLines.clear()
    }
    lastLines.set(key, { at: answeredAt, unlogged: 0 })
    const fields = {
      subscription_id: delivery.subscription_id,
      partner_id: delivery.event.partner_id,
      endpoint: endpointOf(delivery.url),
      delivery_id: delivery.delivery_id,
      attempts: delivery.attempts + 1,
      error: outcome.error,
      // the failures of this kind since the endpoint's last line, this one included
      failures: (last?.unlogged ?? 0) + 1
    }
    if (deadLettered)
      logger.error(fields, "webhook delivery dead-lettered: the endpoint failed every attempt; replay it once fixed")
    else
      logger.warn(
        { ...fields, next_attempt_at: new Date(outcome.retryAt).toISOString() },
        "webhook delivery failed; it will be tried again"
      )
  }
}

/** An observer of the subscriptions the dispatcher disables (its `onDisabled`): an error line each, with the way back. */
export const webhookDisabledLogOf =
  (logger: Logger) =>
  (delivery: EventOutbox.ClaimedDelivery, reason: string, at: number): void =>
    logger.error(
      {
        subscription_id: delivery.subscription_id,
        partner_id: delivery.event.partner_id,
        endpoint: endpointOf(delivery.url),
        reason,
        disabled_at: new Date(at).toISOString()
      },
      "webhook subscription disabled: its pending deliveries are dead-lettered; its partner enables it again with POST /webhooks/subscriptions/{id}/enable, then recovers them"
    )
