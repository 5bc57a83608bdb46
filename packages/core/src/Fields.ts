/** String field schemas with the client-facing messages and documented maxima. */
import { Schema } from "effect"
import { isCalendarDate } from "./CalendarDate.js"

/** A non-blank string of at most `maxLength` characters. */
export const Text = (maxLength: number) =>
  Schema.String.annotations({ message: () => "must be a string" }).pipe(
    Schema.filter((value) => value.trim().length > 0 || "must not be blank"),
    Schema.filter((value) => value.length <= maxLength || `must be at most ${maxLength} characters`),
    Schema.annotations({ jsonSchema: { type: "string", minLength: 1, maxLength } })
  )

/** A string that must pass `isValid`, with the message to show when it does not. */
export const CheckedString = (isValid: (value: string) => boolean, message: string, jsonSchema: object = {}) =>
  Schema.String.annotations({ message: () => "must be a string" }).pipe(
    Schema.filter((value) => isValid(value) || message),
    Schema.annotations({ jsonSchema: { type: "string", ...jsonSchema } })
  )

/** A calendar date `YYYY-MM-DD` that exists. */
export const DateText = CheckedString(isCalendarDate, "must be a real date in the form YYYY-MM-DD", { format: "date", maxLength: 10 })

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
