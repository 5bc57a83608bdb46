/**
 * An endpoint of another protocol served on the partner API's own stack — the MCP endpoint of `@kasko/mcp`, which
 * the composition root hands to `makeApp`. Its requests pass what every operation's do: the request id, the log
 * line, the security headers and the Host check; then its own screen (the names and origins it answers); then the
 * operations' admission (credentials carrying any of its scopes, checked before the body is read, counted against
 * the key's rate limit), the bounded JSON body, and the time budget. It answers POST; GET and DELETE answer 405.
 */
import type { Sandbox } from "@kasko/core/administration"
import type { Scope } from "./Operations.js"
import type { Effect } from "effect"
import type { IncomingHttpHeaders } from "node:http"

/** What an admitted request brings its endpoint. */
export interface ProtocolCall {
  /** The JSON body, read within the body limit; undefined for an empty one. */
  readonly body: unknown
  readonly headers: IncomingHttpHeaders
  /** The partner the credentials belong to. */
  readonly partnerId: string
  /** The products the partner may sell; undefined: every product. */
  readonly products: ReadonlyArray<string> | undefined
  /** Where the caller's key works: `production`, or the partner's `sandbox` (then `partnerId` is the sandbox's). */
  readonly environment: Sandbox.Environment
  /** The request's id, as `X-Request-Id` answers it and its log line names it. */
  readonly requestId: string
}

/** The endpoint's answer, written as it is after the headers every answer carries. */
export interface ProtocolAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** An endpoint on services `R` (the operations' services, or fewer). */
export interface ProtocolEndpoint<R> {
  /** What its requests are counted and traced as, beside the operations' ids: `mcp`. */
  readonly name: string
  /** Its path, below the API's base path. */
  readonly path: string
  /** The scopes that admit a caller: credentials carrying any one of them. */
  readonly scopes: readonly [Scope, ...Array<Scope>]
  /** Why a request is refused before anything else is asked of it (403), or undefined to go on. */
  readonly screen?: (headers: IncomingHttpHeaders) => string | undefined
  /** The answer to an admitted request: never a failure. */
  readonly answer: (call: ProtocolCall) => Effect.Effect<ProtocolAnswer, never, R>
}
