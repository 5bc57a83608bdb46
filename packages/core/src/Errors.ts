/**
 * The core's failures: domain facts, never HTTP statuses. Adapters map each tag
 * to their own answer (the Express adapter to problem+json).
 */
import { Schema } from "effect"

/** One rule a request broke, named by the field path the client sent (`product.parameters.vehicle_price`). */
export const Violation = Schema.Struct({
  field: Schema.String,
  message: Schema.String
})
export type Violation = typeof Violation.Type

/** The request breaks one or more rules; every broken rule is listed, not just the first. */
export class ConstraintViolation extends Schema.TaggedError<ConstraintViolation>()("ConstraintViolation", {
  violations: Schema.NonEmptyArray(Violation)
}) {}

/** No product of that name exists; or, when `variant` is given, the product does but has no such variant. */
export class ProductNotFound extends Schema.TaggedError<ProductNotFound>()("ProductNotFound", {
  product_name: Schema.String,
  variant: Schema.optionalKey(Schema.String),
  /** The products the catalogue does have, when a product is what was not found: what the answer offers instead. */
  products: Schema.optionalKey(Schema.Array(Schema.String))
}) {}

/** The quote does not exist for this partner: unknown, malformed id, another partner's, or expired. */
export class QuoteNotFound extends Schema.TaggedError<QuoteNotFound>()("QuoteNotFound", {
  quote_id: Schema.String
}) {}

/** The partner has no webhook subscription with this id (another partner's is not found either). */
export class SubscriptionNotFound extends Schema.TaggedError<SubscriptionNotFound>()("SubscriptionNotFound", {
  subscription_id: Schema.String
}) {}

/** The partner has no webhook delivery by that id (unknown, or another partner's). */
export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {
  delivery_id: Schema.String
}) {}

/**
 * The partner's webhook delivery cannot be replayed as it is: it is `pending` or `delivered`, not dead-lettered;
 * or it is `dead_lettered` but its subscription is disabled, and waits until that is enabled.
 */
export class DeliveryNotReplayable extends Schema.TaggedError<DeliveryNotReplayable>()("DeliveryNotReplayable", {
  delivery_id: Schema.String,
  state: Schema.Literals(["pending", "delivered", "dead_lettered"]),
  subscription_id: Schema.String
}) {}

/** The partner has as many webhook subscriptions as the operator allows one partner. */
export class SubscriptionLimitReached extends Schema.TaggedError<SubscriptionLimitReached>()(
  "SubscriptionLimitReached",
  { limit: Schema.Number }
) {}

/** An Idempotency-Key was used before, within its 24 hours, with a different request. */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  idempotency_key: Schema.String
}) {}

/** No tariff version of the product is in force on the pricing date. */
export class TariffNotInForce extends Schema.TaggedError<TariffNotInForce>()("TariffNotInForce", {
  product_name: Schema.String,
  pricing_date: Schema.String
}) {}

/**
 * The storage behind a port failed. `retryable` when waiting may help (locked,
 * busy, disk full, connection lost); not when the store is broken (corrupt file).
 * `reason` is for logs, never for clients.
 */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()("StorageUnavailable", {
  reason: Schema.String,
  retryable: Schema.Boolean
}) {}

/** Why credentials were refused (spec §5, RFC 6750's error codes underneath). */
const RefusalReason = Schema.Literals([
  "no_credentials",
  "malformed_authorization",
  "missing_subscription_key",
  "invalid_token",
  "invalid_subscription_key",
  "insufficient_scope"
])

/**
 * The caller is not let in. `description` says why in words safe to show the
 * caller — and is the same for every key that is not valid for the token
 * (unknown, revoked, another partner's, a suspended partner's), so a refusal
 * tells nothing about keys the caller does not hold. `scope` names the scope a
 * token lacks.
 */
export class AuthenticationRefused extends Schema.TaggedError<AuthenticationRefused>()("AuthenticationRefused", {
  reason: RefusalReason,
  description: Schema.String,
  scope: Schema.optionalKey(Schema.String)
}) {}

/** The identity provider's keys cannot be had (its key set does not answer): not the caller's fault. */
export class IdentityProviderUnavailable extends Schema.TaggedError<IdentityProviderUnavailable>()(
  "IdentityProviderUnavailable",
  {
    reason: Schema.String
  }
) {}

/** Every failure the core's public API and its ports can report. */
export type CoreError =
  | AuthenticationRefused
  | ConstraintViolation
  | IdempotencyKeyReused
  | IdentityProviderUnavailable
  | ProductNotFound
  | QuoteNotFound
  | SubscriptionNotFound
  | SubscriptionLimitReached
  | DeliveryNotFound
  | DeliveryNotReplayable
  | TariffNotInForce
  | StorageUnavailable

/** Builds a ConstraintViolation from a non-empty list, or nothing from an empty one. */
export const constraintViolationOf = (violations: ReadonlyArray<Violation>): ConstraintViolation | undefined => {
  const [first, ...rest] = dedupe(violations)
  return first === undefined ? undefined : new ConstraintViolation({ violations: [first, ...rest] })
}

const dedupe = (violations: ReadonlyArray<Violation>): Array<Violation> => {
  const seen = new Set<string>()
  return violations.filter((violation) => {
    const key = `${violation.field}\u0000${violation.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
