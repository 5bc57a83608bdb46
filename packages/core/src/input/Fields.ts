/** String field schemas with the client-facing messages and documented maxima. */
import { Either, Option, ParseResult, Schema } from "effect"
import { isCalendarDate } from "./CalendarDate.js"
import { decoderOf, REFUSED } from "./CompiledDecoder.js"

/** A non-blank string of at most `maxLength` characters. */
export const Text = (maxLength: number) =>
  Schema.String.annotations({ message: () => "must be a string" }).pipe(
    Schema.filter((value) => value.trim().length > 0 || "must not be blank"),
    Schema.filter((value) => value.length <= maxLength || `must be at most ${maxLength} characters`),
    Schema.annotations({ jsonSchema: { type: "string", minLength: 1, maxLength } })
  )

/** True for "" and for whitespace only. */
export const isBlank = (value: string): boolean => value.trim().length === 0

/** Everything `optionalString` needs to know of a field to document it. */
export interface OptionalStringShape {
  readonly maxLength: number
  /** The pattern a present value matches, when there is one (anchored, `^…$`). */
  readonly pattern?: string
  /** The values a present value is one of, when it is an enumeration. */
  readonly enum?: ReadonlyArray<string>
  readonly description?: string
}

/**
 * An optional string field that treats a blank value as absent: partner
 * systems send `""` (or spaces) for what they do not have — most Danish
 * addresses have no floor or door. A present value must pass `schema`.
 */
export const optionalString = <A>(schema: Schema.Schema<A, string>, shape: OptionalStringShape) =>
  Schema.optionalToOptional(sentString(schema, shape), schema, {
    decode: Option.filter((value) => !isBlank(value)),
    encode: (value) => value
  })

/**
 * Like `optionalString`, for a field with a default: blank or absent both
 * decode to `fallback` (its request form).
 */
export const optionalStringWithDefault = <A>(
  schema: Schema.Schema<A, string>,
  shape: OptionalStringShape,
  fallback: string
) =>
  Schema.optionalToRequired(sentString(schema, shape), schema, {
    decode: (sent) =>
      Option.getOrElse(
        Option.filter(sent, (value) => !isBlank(value)),
        () => fallback
      ),
    encode: Option.some
  })

/**
 * What may be sent: blank, or a value `schema` accepts — checked here, on the
 * encoded side, so that its violations are reported together with every other
 * field's (a failure in one field stops a struct before its fields' decoded
 * sides run). Documented so that a blank value validates too.
 */
const sentString = <A>(
  schema: Schema.Schema<A, string>,
  { maxLength, pattern, enum: values, description }: OptionalStringShape
) => {
  const decodePresent = ParseResult.decodeUnknownEither(schema)
  // the compiled decoder answers for nearly every value; the Schema's own parse only when there is a violation to tell
  const isAccepted = (value: string) => decoderOf(schema)(value) !== REFUSED
  return Schema.String.annotations({ message: () => "must be a string" }).pipe(
    Schema.filter((value) => value.length <= maxLength || `must be at most ${maxLength} characters`),
    Schema.filter(
      (value) =>
        isBlank(value) ||
        isAccepted(value) ||
        Either.match(decodePresent(value), { onLeft: (error) => error, onRight: () => true })
    ),
    Schema.annotations({
      jsonSchema: {
        type: "string",
        maxLength,
        ...(pattern === undefined ? {} : { pattern: `^\\s*$|${pattern}` }),
        ...(values === undefined ? {} : { enum: [...values, ""] }),
        description: `${description === undefined ? "" : `${description}. `}Optional: an empty or blank value counts as absent.`
      }
    })
  )
}

/** A string that must pass `isValid`, with the message to show when it does not. */
export const CheckedString = (isValid: (value: string) => boolean, message: string, jsonSchema: object = {}) =>
  Schema.String.annotations({ message: () => "must be a string" }).pipe(
    Schema.filter((value) => isValid(value) || message),
    Schema.annotations({ jsonSchema: { type: "string", ...jsonSchema } })
  )

/** A calendar date `YYYY-MM-DD` that exists. */
export const DateText = CheckedString(isCalendarDate, "must be a real date in the form YYYY-MM-DD", {
  format: "date",
  maxLength: 10
})

/** A boolean, with a plain message. */
export const Flag = Schema.Boolean.annotations({ message: () => "must be true or false" })

/** An object of the given fields; a non-object gets a plain message, field problems keep their own. */
export const RequestObject = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({
    // override only when the value is no object at all; a struct with transformed fields would otherwise report its encoded side
    message: (issue) => ({ message: "must be a JSON object", override: !isJsonObject(issue.actual) })
  })

const isJsonObject = (value: unknown): boolean => typeof value === "object" && value !== null && !Array.isArray(value)

/** An array of `item`; a non-array gets a plain message, item problems keep their own. */
export const RequestArray = <Item extends Schema.Schema.Any>(item: Item) =>
  Schema.Array(item).annotations({ message: () => "must be a JSON array" })

/** One of the given strings, reported as one message listing them (not one per alternative). */
export const OneOf = <const Values extends ReadonlyArray<string>>(values: Values) =>
  Schema.Literal(...values).annotations({
    message: () => ({ message: `must be one of: ${values.join(", ")}`, override: true })
  })
