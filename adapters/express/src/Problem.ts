/**
 * RFC 7807 problem details, the body of every error answer
 * (`application/problem+json`), with `violations` on a 400.
 */
import { Violation } from "@kasko/core"
import { Schema } from "effect"
import type { Response } from "express"
import { PROBLEM_LANGUAGE } from "./ContentLanguage.js"

/** The media type of every failure the API answers (RFC 7807). */
export const PROBLEM_CONTENT_TYPE = "application/problem+json"

/** The body of a failure the API answers (RFC 7807 problem details): its type, title, status and detail. */
export const Problem = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Int,
  detail: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Problem", description: "RFC 7807 problem details" })
export type Problem = typeof Problem.Type

export const ConstraintViolationProblem = Schema.Struct({
  ...Problem.fields,
  violations: Schema.Array(Violation)
}).annotate({
  identifier: "ConstraintViolationProblem",
  description: "RFC 7807 problem details of a 400, with every violation"
})
export type ConstraintViolationProblem = typeof ConstraintViolationProblem.Type

const TYPE_BASE = "https://kasko.example/problems/"

const problemOf = (slug: string, title: string, status: number) =>
  ({ type: `${TYPE_BASE}${slug}`, title, status }) as const

/** The problems kasko answers with, one per kind of failure. */
export const PROBLEMS = {
  constraintViolation: problemOf("constraint-violation", "Constraint Violation", 400),
  unauthorized: problemOf("unauthorized", "Unauthorized", 401),
  forbidden: problemOf("forbidden", "Forbidden", 403),
  notFound: problemOf("not-found", "Not Found", 404),
  methodNotAllowed: problemOf("method-not-allowed", "Method Not Allowed", 405),
  requestTimeout: problemOf("request-timeout", "Request Timeout", 408),
  expectationFailed: problemOf("expectation-failed", "Expectation Failed", 417),
  payloadTooLarge: problemOf("payload-too-large", "Payload Too Large", 413),
  unsupportedMediaType: problemOf("unsupported-media-type", "Unsupported Media Type", 415),
  subscriptionLimitReached: problemOf("subscription-limit-reached", "Conflict", 409),
  deliveryNotReplayable: problemOf("delivery-not-replayable", "Conflict", 409),
  idempotencyKeyReused: problemOf("idempotency-key-reused", "Unprocessable Entity", 422),
  headersTooLarge: problemOf("request-header-fields-too-large", "Request Header Fields Too Large", 431),
  tooManyRequests: problemOf("too-many-requests", "Too Many Requests", 429),
  internal: problemOf("internal-server-error", "Internal Server Error", 500),
  serviceUnavailable: problemOf("service-unavailable", "Service Unavailable", 503)
} as const

/** An error answer: the problem body and any headers it needs (Allow, Retry-After, WWW-Authenticate). */
export interface ProblemAnswer {
  readonly problem: Problem | ConstraintViolationProblem
  readonly headers?: Readonly<Record<string, string>>
}

/** A 400 naming the violations. */
export const constraintViolation = (violations: ReadonlyArray<Violation>): ProblemAnswer => ({
  problem: { ...PROBLEMS.constraintViolation, violations }
})

/** Sends a problem+json answer. */
export const sendProblem = (response: Response, answer: ProblemAnswer): void => {
  response.status(answer.problem.status)
  // the problems' words are English whatever the request asked for
  response.setHeader("Content-Language", PROBLEM_LANGUAGE)
  for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value)
  response.type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(answer.problem))
}
