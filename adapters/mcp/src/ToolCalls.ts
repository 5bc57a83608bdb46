/**
 * One tool call as one Effect program, as a REST request is one: the caller authorized for the tool's scope, the
 * tool run through QuotingService, its answer — marked as the sandbox's for a sandbox key, or its failure as a tool
 * error an agent can act on — as the call's result. Every call is counted (the observer: metrics) and logged on one line; the service's own faults are logged
 * at error, without a stack trace reaching the caller.
 */
import type { Authentication, CoreError } from "@kasko/core"
import type { Sandbox } from "@kasko/core/administration"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect } from "effect"
import { errorResult, INTERNAL_ERROR, type ToolError, toolErrorOf } from "./ToolErrors.js"
import type { ActingPartner, Tool, ToolAnswer, ToolServices } from "./Tools.js"

/** How a call ended: answered; refused (the arguments, the quote, the caller's scope: the agent can act); failed (the service's fault). */
export type ToolOutcome = "ok" | "refused" | "failed"

/**
 * Where the calls are counted: told of each call, its tool, how it ended, how long it took, and the environment of
 * the caller's key (a stdio session's is production).
 */
export interface ToolCallObserver {
  readonly called: (tool: string, outcome: ToolOutcome, seconds: number, environment: Sandbox.Environment) => void
}

/** Where the calls are logged: one line each (info), and the service's faults (error). pino's logger is one. */
export interface CallLog {
  readonly info: (fields: object, message: string) => void
  readonly error: (fields: object, message: string) => void
}

/** Who calls, over which transport: the partner a scope admits, or why not. */
export interface Caller<R> {
  readonly transport: "http" | "stdio"
  /**
   * Where the caller's key works: `production`, or the partner's `sandbox` — its calls are counted there, and a
   * sandbox's tools list and answer `"environment": "sandbox"`.
   */
  readonly environment: Sandbox.Environment
  /** The HTTP request the call came in (its `X-Request-Id`), which the call's log line names. */
  readonly requestId?: string
  /** The partner acting, if the caller's credentials carry `scope`. */
  readonly authorize: (scope: Authentication.Scope) => Effect.Effect<ActingPartner, CoreError, R>
}

/** What is told of the calls, and where. */
export interface CallSettings {
  readonly observer?: ToolCallObserver
  readonly log?: CallLog
}

const CPR_LIKE = /\b\d{6}-?\d{4}\b/g
const BEARER_TOKEN = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi

/** Text with CPR-like numbers and tokens replaced, for the error log. */
const redacted = (text: string) => text.replace(BEARER_TOKEN, "$1[redacted]").replace(CPR_LIKE, "[redacted-number]")

interface Ended {
  readonly outcome: ToolOutcome
  readonly result: CallToolResult
}

const failedWith = (error: ToolError): Ended => ({
  outcome: error.serverFault === true ? "failed" : "refused",
  result: errorResult(error)
})

/** What a sandbox answer's text starts with: a model reading only the text knows it too. */
const SANDBOX_NOTE = "Sandbox (a test, not production):"

/**
 * A tool's answer to a sandbox key, as the REST API's JSON answers to one: `"environment": "sandbox"` beside the
 * structured content's fields, and its text saying so, so that nothing a sandbox answers can be taken for
 * production's (whose answers stay as they are, without the field).
 */
const inSandbox = (answer: ToolAnswer): ToolAnswer => ({
  structured: { ...answer.structured, environment: "sandbox" },
  text: `${SANDBOX_NOTE} ${answer.text}`
})

/** The result of one call of `tool` with `args` by `caller`: never a failure. */
export const callTool = <R>(
  tool: Tool,
  args: unknown,
  caller: Caller<R>,
  settings: CallSettings
): Effect.Effect<CallToolResult, never, ToolServices | R> =>
  Effect.suspend(() => {
    const started = performance.now()
    return timed(tool, args, caller, settings, started)
  })

const timed = <R>(
  tool: Tool,
  args: unknown,
  caller: Caller<R>,
  settings: CallSettings,
  started: number
): Effect.Effect<CallToolResult, never, ToolServices | R> => {
  const where = {
    ...(caller.requestId === undefined ? {} : { request_id: caller.requestId }),
    transport: caller.transport
  }
  return Effect.flatMap(caller.authorize(tool.scope), (acting) =>
    Effect.map(tool.run(args, acting), (answer) => (acting.environment === "sandbox" ? inSandbox(answer) : answer))
  ).pipe(
    Effect.map(
      (answer): Ended => ({
        outcome: "ok",
        result: { content: [{ type: "text", text: answer.text }], structuredContent: answer.structured }
      })
    ),
    Effect.catch((failure: CoreError) =>
      Effect.sync(() => {
        const error = toolErrorOf(failure)
        if (error.serverFault === true)
          settings.log?.error({ ...where, tool: tool.name, error: redacted(JSON.stringify(failure)) }, "tool failed")
        return failedWith(error)
      })
    ),
    Effect.catchCause((cause) =>
      Effect.sync(() => {
        settings.log?.error({ ...where, tool: tool.name, error: redacted(Cause.pretty(cause)) }, "defect")
        return failedWith(INTERNAL_ERROR)
      })
    ),
    Effect.map(({ outcome, result }) => {
      const seconds = (performance.now() - started) / 1000
      settings.observer?.called(tool.name, outcome, seconds, caller.environment)
      settings.log?.info({ ...where, tool: tool.name, outcome, duration_ms: seconds * 1000 }, "tool call")
      return result
    })
  )
}
