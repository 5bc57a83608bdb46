/**
 * Decoding client input with a Schema so that every problem becomes one
 * violation named by the client's field path, all of them at once.
 */
import { Either, ParseResult, Schema } from "effect"
import type { Violation } from "./Errors.js"

const PARSE_OPTIONS = { errors: "all", onExcessProperty: "error" } as const

/** `["policy", "parties", 1, "organization"]` → `policy.parties[1].organization`. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((joined, key) => {
    if (typeof key === "number") return `${joined}[${key}]`
    const name = String(key)
    return joined === "" ? name : `${joined}.${name}`
  }, "")

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
export const violationsOf = (error: ParseResult.ParseError, prefix: ReadonlyArray<PropertyKey> = []): Array<Violation> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    field: fieldPath([...prefix, ...issue.path]) || "body",
    message: messageOf(issue)
  }))

/** Decodes client input, reporting every violation (not just the first) and rejecting unknown fields. */
export const decodeAll = <A, I>(
  schema: Schema.Schema<A, I>,
  input: unknown,
  prefix: ReadonlyArray<PropertyKey> = []
): Either.Either<A, Array<Violation>> =>
  Schema.decodeUnknownEither(schema, PARSE_OPTIONS)(input).pipe(Either.mapLeft((error) => violationsOf(error, prefix)))

/** The raw value at a path of untrusted input, or undefined. */
export const rawAt = (input: unknown, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (value, key) => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined),
    input
  )
