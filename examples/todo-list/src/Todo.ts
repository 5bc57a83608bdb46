/** A todo and the request that creates one (spec §4, guideline showcase). */
import { CalendarDate, Fields } from "@kasko/core/transport"
import { Schema } from "effect"

/** True for an RFC 3339 date-time naming a real instant. */
export const isDateTime = (value: string): boolean => CalendarDate.millisOfDateTime(value) !== undefined

export const DateTimeText = Fields.CheckedString(
  isDateTime,
  "must be an RFC 3339 date-time, e.g. 2030-01-31T12:00:00Z",
  {
    format: "date-time"
  }
)

export const TodoRequest = Fields.RequestObject({
  title: Fields.Text(200),
  description: Fields.Text(2000),
  due_at: DateTimeText
})
export type TodoRequest = typeof TodoRequest.Type

export const SearchRequest = Fields.RequestObject({ due_at: Fields.DateText })

export const Todo = Schema.Struct({
  todo_id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  due_at: Schema.String,
  created_at: Schema.String
})
export type Todo = typeof Todo.Type
