/**
 * The one table from the core's failures to HTTP answers. A new core error does
 * not compile until it has a row here.
 */
import type { AuthenticationRefused, CoreError, DeliveryNotReplayable, ProductNotFound } from "@kasko/core"
import { ProductCatalogue, VARIANTS } from "@kasko/core/transport"
import { constraintViolation, PROBLEMS, type ProblemAnswer } from "./Problem.js"

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5

const unavailable: ProblemAnswer = {
  problem: PROBLEMS.serviceUnavailable,
  headers: { "Retry-After": String(RETRY_AFTER_SECONDS) }
}

const REALM = 'Bearer realm="kasko"'

// RFC 6750 §3: the error codes under the refusal reasons; no code at all when no credentials were sent
const BEARER_ERROR: Readonly<Record<AuthenticationRefused["reason"], string | undefined>> = {
  no_credentials: undefined,
  malformed_authorization: "invalid_request",
  missing_subscription_key: "invalid_request",
  invalid_token: "invalid_token",
  invalid_subscription_key: "invalid_token",
  insufficient_scope: "insufficient_scope"
}

// RFC 6750 §3: error_description is printable ASCII without `"` and `\`
const quotable = (text: string) => text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "?")

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`

/**
 * 401 with a WWW-Authenticate challenge that says what to fix, and the same in
 * the problem's `detail`. A missing scope is 401, not RFC 6750's 403, because
 * the specification says so.
 */
const unauthorized = (error: AuthenticationRefused): ProblemAnswer => {
  const code = BEARER_ERROR[error.reason]
  const challenge =
    code === undefined
      ? REALM
      : `${REALM}, error="${code}", error_description="${quotable(error.description)}"${error.scope === undefined ? "" : `, scope="${error.scope}"`}`
  const detail =
    error.reason === "invalid_token"
      ? `The access token was refused: ${error.description}.`
      : sentence(error.description)
  return { problem: { ...PROBLEMS.unauthorized, detail }, headers: { "WWW-Authenticate": challenge } }
}

// a path parameter is echoed as a JSON string, at most this long: enough to recognise, never a page of it
const ECHOED_LENGTH = 64
const echoed = (text: string) => JSON.stringify(text.length > ECHOED_LENGTH ? `${text.slice(0, ECHOED_LENGTH)}…` : text)

/** What was not found, named by its path parameter: `product_name`, or the `variant` of a product that exists. */
const productNotFoundDetail = (error: ProductNotFound): string =>
  error.variant === undefined
    ? error.products?.length === 0
      ? `No product with product_name ${echoed(error.product_name)}: this partner may sell none.`
      : `No product with product_name ${echoed(error.product_name)}: it is one of ${(error.products ?? ProductCatalogue.PRODUCT_NAMES).join(", ")}.`
    : `Product ${error.product_name} has no variant ${echoed(error.variant)}: variant is one of ${VARIANTS.join(", ")}.`

/** Why the delivery stays as it is, by its state: what the partner can do instead. */
const deliveryNotReplayableDetail = (error: DeliveryNotReplayable): string =>
  error.state === "dead_lettered"
    ? `The delivery is dead_lettered, but its subscription ${error.subscription_id} is disabled: enable it (POST /webhooks/subscriptions/${error.subscription_id}/enable), then replay the delivery.`
    : `The delivery is ${error.state}; only a dead-lettered delivery can be replayed.`

const PROBLEM_OF_CORE_ERROR = {
  AuthenticationRefused: unauthorized,
  ConstraintViolation: (error) => constraintViolation(error.violations),
  IdempotencyKeyReused: () => ({
    problem: {
      ...PROBLEMS.idempotencyKeyReused,
      detail: "This Idempotency-Key was used with a different request in the last 24 hours."
    }
  }),
  IdentityProviderUnavailable: () => unavailable,
  ProductNotFound: (error) => ({ problem: { ...PROBLEMS.notFound, detail: productNotFoundDetail(error) } }),
  QuoteNotFound: () => ({ problem: PROBLEMS.notFound }),
  SubscriptionNotFound: () => ({ problem: PROBLEMS.notFound }),
  DeliveryNotFound: () => ({ problem: PROBLEMS.notFound }),
  DeliveryNotReplayable: (error) => ({
    problem: { ...PROBLEMS.deliveryNotReplayable, detail: deliveryNotReplayableDetail(error) }
  }),
  SubscriptionLimitReached: (error) => ({
    problem: {
      ...PROBLEMS.subscriptionLimitReached,
      detail: `A partner may have at most ${error.limit} webhook subscriptions: delete one (DELETE /webhooks/subscriptions/{subscription_id}) before adding another.`
    }
  }),
  TariffNotInForce: () => unavailable,
  StorageUnavailable: (error) => (error.retryable ? unavailable : { problem: PROBLEMS.internal })
} satisfies { readonly [Tag in CoreError["_tag"]]: (error: Extract<CoreError, { _tag: Tag }>) => ProblemAnswer }

/** The HTTP answer to a core failure. */
export const problemOfCoreError = (error: CoreError): ProblemAnswer =>
  (PROBLEM_OF_CORE_ERROR[error._tag] as (error: CoreError) => ProblemAnswer)(error)

/** True for the failures that mean the service, not the client, is at fault (logged at error level). */
export const isServerFault = (error: CoreError): boolean =>
  error._tag === "StorageUnavailable" ||
  error._tag === "TariffNotInForce" ||
  error._tag === "IdentityProviderUnavailable"

/** A 503 for a request whose operation waited past its time budget. */
export const overBudget: ProblemAnswer = {
  problem: {
    ...PROBLEMS.serviceUnavailable,
    detail: "The request took too long; retry it (with its Idempotency-Key)."
  },
  headers: { "Retry-After": String(RETRY_AFTER_SECONDS) }
}
