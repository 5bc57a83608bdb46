/**
 * Decoding client input with a Schema so that every problem becomes one
 * violation named by the client's field path, all of them at once.
 * @module
 */
import { Result, type Schema, type SchemaAST, SchemaIssue, SchemaParser } from "effect"
import type { Violation } from "../Errors.js"
import { fieldPath } from "./FieldPath.js"
import { cleanText } from "./RequestText.js"

export { fieldPath } from "./FieldPath.js"

const PARSE_OPTIONS: SchemaAST.ParseOptions = { errors: "all", onExcessProperty: "error" }

const leafMessage: SchemaIssue.LeafHook = (issue) => {
  switch (issue._tag) {
    case "MissingKey":
      return "is required"
    case "UnexpectedKey":
      return "is not a known field"
    default:
      return SchemaIssue.defaultLeafHook(issue)
  }
}

// every leaf issue with its path; a failed check's message is its own (or its annotation's)
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1({ leafHook: leafMessage })

/** Every violation in a Schema issue, with field paths below `prefix`. */
export const violationsOf = (issue: SchemaIssue.Issue, prefix: ReadonlyArray<PropertyKey> = []): Array<Violation> =>
  formatIssues(issue).issues.map((entry) => ({
    field:
      fieldPath([
        ...prefix,
        ...(entry.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))
      ]) || "body",
    message: entry.message
  }))

/**
 * Decodes client input with its Schema, reporting every violation (not just the
 * first) and rejecting unknown fields. Strings are NFC-normalised first, and a
 * string with control characters, unpaired surrogates or bidirectional
 * overrides is a violation of its own field (which the Schema then does not
 * report again).
 */
export const decodeAll = <A>(
  schema: Schema.Decoder<A>,
  input: unknown,
  prefix: ReadonlyArray<PropertyKey> = []
): Result.Result<A, Array<Violation>> => {
  const text = cleanText(input)
  const decoded = Result.mapError(SchemaParser.decodeUnknownResult(schema, PARSE_OPTIONS)(text.input), (issue) =>
    violationsOf(issue, prefix)
  )
  if (text.violations.length === 0) return decoded
  const refused = text.violations.map((violation) => ({ ...violation, field: prefixed(prefix, violation.field) }))
  const fields = new Set(refused.map((violation) => violation.field))
  return Result.fail([
    ...refused,
    ...(Result.isFailure(decoded) ? decoded.failure.filter((violation) => !fields.has(violation.field)) : [])
  ])
}

const prefixed = (prefix: ReadonlyArray<PropertyKey>, field: string) =>
  prefix.length === 0 ? field : `${fieldPath(prefix)}.${field}`

/** The raw value at a path of untrusted input, or undefined. */
export const rawAt = (input: unknown, ...path: ReadonlyArray<string>): unknown => {
  // every request reads a few of these: a plain loop, no callback
  let value = input
  for (let index = 0; index < path.length; index++) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
    value = (value as Record<string, unknown>)[path[index]!]
  }
  return value
}
