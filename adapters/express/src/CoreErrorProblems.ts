/**
 * The one table from the core's failures to HTTP answers. A new core error does
 * not compile until it has a row here.
 */
import type { CoreError } from "@kasko/core"
import { constraintViolation, PROBLEMS, type ProblemAnswer } from "./Problem.js"

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5

const unavailable: ProblemAnswer = {
  problem: PROBLEMS.serviceUnavailable,
  headers: { "Retry-After": String(RETRY_AFTER_SECONDS) }
}

const PROBLEM_OF_CORE_ERROR = {
  ConstraintViolation: (error) => constraintViolation(error.violations),
  IdempotencyKeyReused: () => ({
    problem: { ...PROBLEMS.idempotencyKeyReused, detail: "This Idempotency-Key was used with a different request in the last 24 hours." }
  }),
  ProductNotFound: () => ({ problem: PROBLEMS.notFound }),
  QuoteNotFound: () => ({ problem: PROBLEMS.notFound }),
  TariffNotInForce: () => unavailable,
  StorageUnavailable: (error) => (error.retryable ? unavailable : { problem: PROBLEMS.internal })
} satisfies { readonly [Tag in CoreError["_tag"]]: (error: Extract<CoreError, { _tag: Tag }>) => ProblemAnswer }

/** The HTTP answer to a core failure. */
export const problemOfCoreError = (error: CoreError): ProblemAnswer =>
  (PROBLEM_OF_CORE_ERROR[error._tag] as (error: CoreError) => ProblemAnswer)(error)

/** True for the failures that mean the service, not the client, is at fault (logged at error level). */
export const isServerFault = (error: CoreError): boolean =>
  error._tag === "StorageUnavailable" || error._tag === "TariffNotInForce"
