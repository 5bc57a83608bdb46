/**
 * String field schemas with the client-facing messages and documented maxima.
 * @module
 */
import { type JsonSchema, Option, Schema, SchemaGetter } from "effect"
import { isCalendarDate } from "./CalendarDate.js"

/**
 * A check that holds, or answers its message. A failed rule ends the checks of
 * its value, so a field reports one violation: the first rule it breaks.
 */
export const rule = <T>(holds: (value: T) => true | string, annotations?: Schema.Annotations.Filter) =>
  Schema.makeFilter<T>((value) => holds(value), annotations, true)

/** A non-blank string of at most `maxLength` characters. */
export const Text = (maxLength: number) =>
  Schema.String.annotate({ message: "must be a string" }).check(
    rule((value: string) => value.trim().length > 0 || "must not be blank", { toJsonSchema: () => ({ minLength: 1 }) }),
    rule((value: string) => value.length <= maxLength || `must be at most ${maxLength} characters`, {
      toJsonSchema: () => ({ maxLength })
    })
  )

/** True for "" and for whitespace only. */
export const isBlank = (value: string): boolean => value.trim().length === 0

/** Everything `optionalString` needs to know of a field to document it. */
interface OptionalStringShape {
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
export const optionalString = <A>(schema: Schema.Codec<A, string>, shape: OptionalStringShape) =>
  Schema.optionalKey(sentString(shape)).pipe(
    Schema.decodeTo(Schema.optionalKey(schema), {
      decode: SchemaGetter.transformOptional(Option.filter((value: string) => !isBlank(value))),
      encode: SchemaGetter.passthrough()
    })
  )

/**
 * Like `optionalString`, for a field with a default: blank or absent both
 * decode to `fallback` (its request form).
 */
export const optionalStringWithDefault = <A>(
  schema: Schema.Codec<A, string>,
  shape: OptionalStringShape,
  fallback: string
) =>
  Schema.optionalKey(sentString(shape)).pipe(
    Schema.decodeTo(schema, {
      decode: SchemaGetter.transformOptional((sent: Option.Option<string>) =>
        Option.some(
          Option.getOrElse(
            Option.filter(sent, (value) => !isBlank(value)),
            () => fallback
          )
        )
      ),
      encode: SchemaGetter.passthrough()
    })
  )

/**
 * What may be sent: a string no longer than the field may be, blank or not.
 * A value that is not blank then goes on to the field's own schema, which
 * reports its violations beside every other field's. Documented so that a
 * blank value validates too.
 */
const sentString = ({ maxLength, pattern, enum: values, description }: OptionalStringShape) =>
  Schema.String.annotate({
    message: "must be a string",
    description: `${description === undefined ? "" : `${description}. `}Optional: an empty or blank value counts as absent.`
  }).check(
    rule((value: string) => value.length <= maxLength || `must be at most ${maxLength} characters`, {
      toJsonSchema: () => ({
        maxLength,
        ...(pattern === undefined ? {} : { pattern: `^\\s*$|${pattern}` }),
        ...(values === undefined ? {} : { enum: [...values, ""] })
      })
    })
  )

/** A string that must pass `isValid`, with the message to show when it does not. */
export const CheckedString = (
  isValid: (value: string) => boolean,
  message: string,
  jsonSchema: JsonSchema.JsonSchema = {}
) =>
  Schema.String.annotate({ message: "must be a string" }).check(
    rule((value: string) => isValid(value) || message, { toJsonSchema: () => jsonSchema })
  )

/** A calendar date `YYYY-MM-DD` that exists. */
export const DateText = CheckedString(isCalendarDate, "must be a real date in the form YYYY-MM-DD", {
  format: "date",
  maxLength: 10
})

/** A boolean, with a plain message. */
export const Flag = Schema.Boolean.annotate({ message: "must be true or false" })

/** An object of the given fields; a non-object gets a plain message, field problems keep their own. */
export const RequestObject = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotate({ message: "must be a JSON object" })

/** An array of `item`; a non-array gets a plain message, item problems keep their own. */
export const RequestArray = <Item extends Schema.Top>(item: Item) =>
  Schema.Array(item).annotate({ message: "must be a JSON array" })

/** One of the given strings, reported as one message listing them (not one per alternative). */
export const OneOf = <const Values extends ReadonlyArray<string>>(values: Values) =>
  Schema.Literals(values).annotate({ message: `must be one of: ${values.join(", ")}` })
