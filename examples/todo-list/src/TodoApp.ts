/**
 * The todo-list showcase of spec §4 on the insurance API's own helpers:
 * problem+json, JSON bodies, pagination, request ids, 404/405 fallbacks.
 * Todos live in memory; time comes from an injectable clock.
 */
import { CalendarDate, Decoding } from "@kasko/core/transport"
import type { Violation } from "@kasko/core"
import { constraintViolation, PROBLEMS, sendProblem } from "@kasko/express"
import { installMethodNotAllowed, installProblemFallbacks, requestId, requestLog } from "@kasko/express/toolkit"
import { Result } from "effect"
import express, { type Express, type Request } from "express"
import { randomUUID } from "node:crypto"
import type { Logger } from "pino"
import { jsonBody } from "./JsonBody.js"
import { pageHref, pageOf, parsePageRequest } from "./Pagination.js"
import { SearchRequest, TodoRequest, type Todo } from "./Todo.js"

export interface TodoAppOptions {
  readonly logger: Logger
  /** Epoch milliseconds now; the real clock by default. */
  readonly now?: () => number
}

const COLLECTION = "/todo-list/todos"

type Query = Record<string, string | ReadonlyArray<string> | undefined>

export const makeTodoApp = (options: TodoAppOptions): Express => {
  const now = options.now ?? (() => Date.now())
  const todos = new Map<string, Todo>()
  const app = express()
  app.disable("x-powered-by")
  app.set("query parser", "simple")
  app.use(requestId)
  app.use(requestLog(options.logger))

  const today = () => CalendarDate.calendarDateOfMillis(now())
  const dueOn = (date: string) =>
    [...todos.values()].filter((todo) => CalendarDate.calendarDateOfMillis(Date.parse(todo.due_at)) === date)

  /** The due_at filter date, or its violations: a real date, not in the past. */
  const checkDueDate = (date: unknown, field: string): Result.Result<string, Array<Violation>> => {
    const decoded = Decoding.decodeAll(SearchRequest.fields.due_at, date, [field])
    if (Result.isFailure(decoded)) return decoded
    return decoded.success < today()
      ? Result.fail([{ field, message: `must not be in the past (before ${today()})` }])
      : decoded
  }

  const answerPage = (
    response: express.Response,
    query: Query,
    todosToPage: ReadonlyArray<Todo>,
    path: string,
    filter: Record<string, string>
  ) => {
    const pageRequest = parsePageRequest(query)
    if (Result.isFailure(pageRequest)) return sendProblem(response, constraintViolation(pageRequest.failure))
    response.json(pageOf(todosToPage, pageRequest.success, pageHref(path, filter)))
  }

  app.post(COLLECTION, ...jsonBody(64 * 1024), (request, response) => {
    const decoded = Decoding.decodeAll(TodoRequest, request.body)
    if (Result.isFailure(decoded)) return sendProblem(response, constraintViolation(decoded.failure))
    if (Date.parse(decoded.success.due_at) < now()) {
      return sendProblem(response, constraintViolation([{ field: "due_at", message: "must not be in the past" }]))
    }
    const todo: Todo = {
      todo_id: randomUUID(),
      ...decoded.success,
      due_at: new Date(Date.parse(decoded.success.due_at)).toISOString(),
      created_at: new Date(now()).toISOString()
    }
    todos.set(todo.todo_id, todo)
    response.json(todo)
  })

  app.get(COLLECTION, (request: Request, response) => {
    const query = request.query as Query
    if (query["due_at"] === undefined) return answerPage(response, query, [...todos.values()], COLLECTION, {})
    const date = checkDueDate(query["due_at"], "due_at")
    if (Result.isFailure(date)) {
      const pageViolations = Result.match(parsePageRequest(query), {
        onFailure: (violations) => violations,
        onSuccess: () => []
      })
      return sendProblem(response, constraintViolation([...date.failure, ...pageViolations]))
    }
    answerPage(response, query, dueOn(date.success), COLLECTION, { due_at: date.success })
  })

  app.post(`${COLLECTION}/search`, ...jsonBody(64 * 1024), (request, response) => {
    const decoded = Decoding.decodeAll(SearchRequest, request.body)
    if (Result.isFailure(decoded)) return sendProblem(response, constraintViolation(decoded.failure))
    const date = checkDueDate(decoded.success.due_at, "due_at")
    if (Result.isFailure(date)) return sendProblem(response, constraintViolation(date.failure))
    answerPage(response, request.query as Query, dueOn(date.success), `${COLLECTION}/search`, {})
  })

  app.get(`${COLLECTION}/:todo_id`, (request, response) => {
    const todo = todos.get(request.params["todo_id"] ?? "")
    if (todo === undefined) return sendProblem(response, { problem: PROBLEMS.notFound })
    response.json(todo)
  })

  installMethodNotAllowed(
    app,
    new Map([
      [COLLECTION, ["GET", "POST"]],
      [`${COLLECTION}/search`, ["POST"]],
      [`${COLLECTION}/:todo_id`, ["GET"]]
    ])
  )
  installProblemFallbacks(app, options.logger)
  return app
}
