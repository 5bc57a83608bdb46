/**
 * The authentication slot: every operation asks it who the caller is before
 * running. Routes never see credentials, so real authentication (bearer token
 * and subscription key) replaces the function without touching them.
 */
import type { Request } from "express"
import type { Operation } from "./Operations.js"
import type { ProblemAnswer } from "./Problem.js"

/** The caller an operation acts for. */
export interface Principal {
  readonly partnerId: string
  /** What the caller's requests are counted under for the rate limit: its subscription key's prefix, say. */
  readonly rateLimitKey: string
}

/** Where a request's principal is kept (`response.locals`) between authentication and the operation. */
export const PRINCIPAL = "principal"

/** Answers the caller, or the problem (401) to answer instead of running the operation. */
export type Authenticate = (request: Request, operation: Operation) => Promise<Principal | ProblemAnswer>

/** Every caller is one partner: for local use and tests, before credentials are configured. */
export const singlePartner =
  (partnerId: string): Authenticate =>
  async () => ({ partnerId, rateLimitKey: partnerId })

export const isPrincipal = (outcome: Principal | ProblemAnswer): outcome is Principal => "partnerId" in outcome
