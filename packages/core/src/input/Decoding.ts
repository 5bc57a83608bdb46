/**
 * Decoding client input with a Schema so that every problem becomes one
 * violation named by the client's field path, all of them at once.
 */
import { Either, ParseResult, Schema } from "effect"
import { decoderOf, REFUSED } from "./CompiledDecoder.js"
import type { Violation } from "../Errors.js"
import { fieldPath } from "./FieldPath.js"
import { cleanText } from "./RequestText.js"

export { fieldPath } from "./FieldPath.js"

const PARSE_OPTIONS = { errors: "all", onExcessProperty: "error" } as const

const messageOf = (issue: ParseResult.ArrayFormatterIssue): string => {
  switch (issue._tag) {
    case "Missing":
      return "is required"
    case "Unexpected":
      return "is not a known field"
    default:
      return issue.message
  }
}

/** Every violation in a parse error, with field paths below `prefix`. */
export const violationsOf = (
  error: ParseResult.ParseError,
  prefix: ReadonlyArray<PropertyKey> = []
): Array<Violation> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    field: fieldPath([...prefix, ...issue.path]) || "body",
    message: messageOf(issue)
  }))

/**
 * Decodes client input, reporting every violation (not just the first) and
 * rejecting unknown fields. Strings are NFC-normalised first, and a string with
 * control characters, unpaired surrogates or bidirectional overrides is a
 * violation of its own field (which the Schema then does not report again).
 * Input the Schema accepts as is takes the compiled path (`CompiledDecoder`);
 * the rest is decoded by the Schema itself, for its report.
 */
export const decodeAll = <A, I>(
  schema: Schema.Schema<A, I>,
  input: unknown,
  prefix: ReadonlyArray<PropertyKey> = []
): Either.Either<A, Array<Violation>> => {
  const accepted = decoderOf(schema)(input)
  return accepted !== REFUSED ? Either.right(accepted) : decodeReporting(schema, input, prefix)
}

/** `decodeAll` by the Schema alone: the path that names every violation. */
export const decodeReporting = <A, I>(
  schema: Schema.Schema<A, I>,
  input: unknown,
  prefix: ReadonlyArray<PropertyKey> = []
): Either.Either<A, Array<Violation>> => {
  const text = cleanText(input)
  const decoded = Schema.decodeUnknownEither(
    schema,
    PARSE_OPTIONS
  )(text.input).pipe(Either.mapLeft((error) => violationsOf(error, prefix)))
  if (text.violations.length === 0) return decoded
  const refused = text.violations.map((violation) => ({ ...violation, field: prefixed(prefix, violation.field) }))
  const fields = new Set(refused.map((violation) => violation.field))
  return Either.left([
    ...refused,
    ...(Either.isLeft(decoded) ? decoded.left.filter((violation) => !fields.has(violation.field)) : [])
  ])
}

const prefixed = (prefix: ReadonlyArray<PropertyKey>, field: string) =>
  prefix.length === 0 ? field : `${fieldPath(prefix)}.${field}`

/** The raw value at a path of untrusted input, or undefined. */
export const rawAt = (input: unknown, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)[key]
        : undefined,
    input
  )
