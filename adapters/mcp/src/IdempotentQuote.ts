/**
 * create_quote's idempotency key: as the REST API's `Idempotency-Key` header (1–255 visible ASCII characters), an
 * argument beside the quote request, so that an agent retrying a call whose answer it lost gets the quote the first
 * call created and creates none. The key is kept with a fingerprint of the request (SHA-256 of its JSON), as the REST
 * API keeps it: the same key with other arguments is refused.
 *
 * @module
 */
import { ConstraintViolation } from "@kasko/core"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import type { JsonObject } from "./JsonSchemas.js"

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

/** The argument's name. */
const KEY = "idempotency_key"

/** A quote request's JSON Schema with the optional idempotency key beside its members. */
export const withIdempotencyKey = (schema: JsonObject): JsonObject => ({
  ...schema,
  properties: {
    ...(schema["properties"] as JsonObject),
    [KEY]: {
      type: "string",
      pattern: "^[\\x21-\\x7e]{1,255}$",
      description:
        "Optional: any 1–255 visible ASCII characters naming this request, e.g. a UUID. Sent again with the same arguments within 24 hours, the call answers the quote the first one created and creates none."
    }
  }
})

/** The arguments as the quote request they carry, and the idempotency key with the request's fingerprint, if any. */
export const idempotentRequestOf = (
  args: unknown
): Effect.Effect<
  {
    readonly request: unknown
    readonly idempotency: { readonly key: string; readonly fingerprint: string } | undefined
  },
  ConstraintViolation
> => {
  if (typeof args !== "object" || args === null || Array.isArray(args) || !Object.hasOwn(args, KEY))
    return Effect.succeed({ request: args, idempotency: undefined })
  const { [KEY]: key, ...request } = args as Record<string, unknown>
  if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key))
    return Effect.fail(
      new ConstraintViolation({ violations: [{ field: KEY, message: "must be 1–255 visible ASCII characters" }] })
    )
  const fingerprint = createHash("sha256").update(JSON.stringify(request)).digest("hex")
  return Effect.succeed({ request, idempotency: { key, fingerprint } })
}
