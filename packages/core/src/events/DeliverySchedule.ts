/**
 * When a webhook delivery that failed is tried again: exponential backoff
 * with jitter — 10 s, 20 s, 40 s … doubling up to an hour between attempts,
 * each spread over ±50 % so that receivers coming back are not hit by every
 * sender at once — for 24 hours from the delivery's first attempt; after
 * that it is dead-lettered, for an operator to replay. Pure: the jitter's
 * randomness comes in as a number in [0, 1).
 * @module
 */

const FIRST_RETRY_DELAY_MILLIS = 10_000
/** An endpoint that has failed every attempt for this long is disabled (Standard Webhooks' operational advice). */
export const DISABLE_AFTER_FAILING_MILLIS = 5 * 24 * 60 * 60 * 1000
const LONGEST_RETRY_DELAY_MILLIS = 60 * 60 * 1000
/** How long a failing delivery is retried after its first attempt (24 hours) before it is dead-lettered. */
export const RETRY_WINDOW_MILLIS = 24 * 60 * 60 * 1000

/** The delay before attempt `attempts + 1`, after `attempts` failed ones (1, 2, …), before jitter. */
const backoffMillis = (attempts: number): number =>
  Math.min(FIRST_RETRY_DELAY_MILLIS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_DELAY_MILLIS)

/** What follows a failed attempt: another at an instant, or the dead letters. */
type AfterFailure = { readonly retryAt: number } | { readonly deadLettered: true }

/**
 * After `attempts` failed attempts, the last at `failedAt`, of a delivery first
 * tried at `firstAttemptAt`: when to try again, or dead-letter it once the
 * retry window has passed. `random` in [0, 1) spreads the delay over ±50 %.
 * An endpoint that asked to be left alone for `retryAfterMillis` (Retry-After
 * on a 429 or 503, as Standard Webhooks asks senders to honour) is not tried
 * sooner — but never later than the longest delay, an hour, after the failure:
 * an endpoint's answer does not hold a delivery past its retry window.
 */
export const afterFailure = (
  attempts: number,
  firstAttemptAt: number,
  failedAt: number,
  random: number,
  retryAfterMillis = 0
): AfterFailure => {
  if (failedAt - firstAttemptAt >= RETRY_WINDOW_MILLIS) return { deadLettered: true }
  const delay = Math.round(backoffMillis(attempts) * (0.5 + random))
  return { retryAt: failedAt + Math.max(delay, Math.min(retryAfterMillis, LONGEST_RETRY_DELAY_MILLIS)) }
}

/**
 * A Retry-After header's wait in milliseconds at `now` (epoch ms): delay-seconds or an HTTP date (RFC 9110
 * §10.2.3); 0 for none, one in the past, or one that is neither. Delay-seconds of any length count: one too
 * long for a number is the longest wait there is (`afterFailure` caps every wait at its hour).
 */
export const retryAfterMillisOf = (header: string | undefined, now: number): number => {
  if (header === undefined) return 0
  const text = header.trim()
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER)
  const date = Date.parse(text)
  return Number.isNaN(date) ? 0 : Math.max(0, date - now)
}

/** Why a failed attempt disables its subscription, and — for failing too long — up to when it must have been failing. */
export interface Disabling {
  readonly reason: string
  /** The store disables only while its own failing_since is at or before this: a claimed delivery's read may be stale. */
  readonly failingSinceAtOrBefore?: number
}

/**
 * Whether a failed attempt disables its subscription: its endpoint answered 410 Gone (the receiver's way to say
 * it wants no more, per Standard Webhooks), or every attempt at it has failed since `failingSince`,
 * DISABLE_AFTER_FAILING_MILLIS or longer before `failedAt`.
 */
export const disablingOf = (
  status: number | undefined,
  failingSince: number | undefined,
  failedAt: number
): Disabling | undefined => {
  if (status === 410) return { reason: "the endpoint answered 410 Gone" }
  if (failingSince !== undefined && failedAt - failingSince >= DISABLE_AFTER_FAILING_MILLIS)
    return {
      reason: "every attempt at the endpoint failed for 5 days",
      failingSinceAtOrBefore: failedAt - DISABLE_AFTER_FAILING_MILLIS
    }
  return undefined
}
