/**
 * The one table from the core's failures to tool errors: what an agent reads when a call fails (`isError`), in
 * words it can act on — each field and what it allows, the scope a token lacks, whether to try again. No stack
 * trace, no internal id: only what the caller sent or may know. A new core error does not compile until it has a
 * row here.
 */
import type { AuthenticationRefused, CoreError, Violation } from "@kasko/core"
import { ProductCatalogue, VARIANTS } from "@kasko/core/transport"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"

/** A tool error: the sentence for the agent, and the violations (as the REST API's 400 lists them) when the arguments broke rules. */
export interface ToolError {
  readonly text: string
  readonly violations?: ReadonlyArray<Violation>
  /** The service's fault, not the caller's: logged, and counted as `failed`. */
  readonly serverFault?: true
}

// what the caller sent is echoed as a JSON string, at most this long
const ECHOED_LENGTH = 64
const echoed = (text: string) => JSON.stringify(text.length > ECHOED_LENGTH ? `${text.slice(0, ECHOED_LENGTH)}…` : text)

const TRY_AGAIN = "Try the call again in a few seconds; if it keeps failing, tell the user the service is unavailable."

const refusedCredentials = (error: AuthenticationRefused): ToolError =>
  error.reason === "insufficient_scope"
    ? {
        text: `This partner's access token lacks the scope ${error.scope ?? ""}, which this tool needs: nothing was done. Tell the user to ask their kasko administrator for a token with that scope.`
      }
    : { text: `The partner's credentials were refused (${error.description}): nothing was done.` }

const violationsText = (violations: ReadonlyArray<Violation>) =>
  [
    `The arguments break ${violations.length === 1 ? "a rule" : `${violations.length} rules`}; nothing was done. Correct each field named and call again:`,
    ...violations.map((violation) => `- ${violation.field}: ${violation.message}`)
  ].join("\n")

const TOOL_ERROR_OF_CORE_ERROR = {
  AuthenticationRefused: refusedCredentials,
  ConstraintViolation: (error) => ({ text: violationsText(error.violations), violations: error.violations }),
  IdempotencyKeyReused: () => ({
    text: "This idempotency key was used with a different request in the last 24 hours: nothing was done."
  }),
  IdentityProviderUnavailable: () => ({
    text: `The identity provider that checks the partner's token cannot be reached: nothing was done. ${TRY_AGAIN}`,
    serverFault: true
  }),
  ProductNotFound: (error) => ({
    text:
      error.variant === undefined
        ? `No product is named ${echoed(error.product_name)}: product_name is one of ${(error.products ?? ProductCatalogue.PRODUCT_NAMES).join(", ")}.`
        : `Product ${error.product_name} has no variant ${echoed(error.variant)}: the variant is one of ${VARIANTS.join(", ")}.`
  }),
  QuoteNotFound: (error) => ({
    text: `No quote ${echoed(error.quote_id)} exists for this partner: a quote is found only by the partner that created it, for 30 days from its creation. Check the quote_id that create_quote answered.`
  }),
  // the webhook errors: no tool manages webhooks, and these never reach a tool's caller
  SubscriptionNotFound: () => ({ text: "No such webhook subscription exists for this partner." }),
  DeliveryNotFound: () => ({ text: "No such webhook delivery exists for this partner." }),
  DeliveryNotReplayable: (error) => ({ text: `The webhook delivery is ${error.state} and cannot be replayed.` }),
  SubscriptionLimitReached: (error) => ({
    text: `A partner may have at most ${error.limit} webhook subscriptions.`
  }),
  TariffNotInForce: (error) => ({
    text: `No tariff of ${error.product_name} is in force today, so it cannot be priced now: tell the user the product cannot be sold today.`,
    serverFault: true
  }),
  StorageUnavailable: (error) =>
    error.retryable
      ? { text: `The service's storage is busy: nothing was stored. ${TRY_AGAIN}`, serverFault: true }
      : { text: "The service failed: nothing was stored. Tell the user the service is unavailable.", serverFault: true }
} satisfies { readonly [Tag in CoreError["_tag"]]: (error: Extract<CoreError, { _tag: Tag }>) => ToolError }

/** The tool error of a core failure. */
export const toolErrorOf = (error: CoreError): ToolError =>
  (TOOL_ERROR_OF_CORE_ERROR[error._tag] as (error: CoreError) => ToolError)(error)

/** What a defect (a bug, never the caller's mistake) answers: no detail of it. */
export const INTERNAL_ERROR: ToolError = {
  text: "The service failed while answering: nothing may have been done. Tell the user the service is unavailable.",
  serverFault: true
}

/**
 * A tool error as the call's result: its sentence, and — when the arguments broke rules — the violations as JSON
 * in a second block, exactly as the REST API's 400 problem lists them (no structured content: the tool's output
 * schema describes its answers only).
 */
export const errorResult = (error: ToolError): CallToolResult => ({
  isError: true,
  content: [
    { type: "text", text: error.text },
    ...(error.violations === undefined
      ? []
      : [{ type: "text" as const, text: JSON.stringify({ violations: error.violations }) }])
  ]
})
