/**
 * The todo-list showcase of spec §4 on the insurance API's own helpers:
 * problem+json, JSON bodies, pagination, request ids, 404/405 fallbacks.
 * Todos live in memory; time comes from an injectable clock.
 */
import { CalendarDate, Decoding } from "@kasko/core/transport"
import type { Errors } from "@kasko/core"
import { constraintViolation, PROBLEMS, sendProblem } from "@kasko/express"
import {
  installMethodNotAllowed,
  installProblemFallbacks,
  jsonBody,
  pageHref,
  pageOf,
  parsePageRequest,
  requestId,
  requestLog
} from "@kasko/express/toolkit"
import { Either } from "effect"
import express, { type Express, type Request } from "express"
import { randomUUID } from "node:crypto"
import type { Logger } from "pino"
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
  const checkDueDate = (date: unknown, field: string): Either.Either<string, Array<Errors.Violation>> => {
    const decoded = Decoding.decodeAll(SearchRequest.fields.due_at, date, [field])
    if (Either.isLeft(decoded)) return decoded
    return decoded.right < today()
      ? Either.left([{ field, message: `must not be in the past (before ${today()})` }])
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
    if (Either.isLeft(pageRequest)) return sendProblem(response, constraintViolation(pageRequest.left))
    response.json(pageOf(todosToPage, pageRequest.right, pageHref(path, filter)))
  }

  app.post(COLLECTION, ...jsonBody(64 * 1024), (request, response) => {
    const decoded = Decoding.decodeAll(TodoRequest, request.body)
    if (Either.isLeft(decoded)) return sendProblem(response, constraintViolation(decoded.left))
    if (Date.parse(decoded.right.due_at) < now()) {
      return sendProblem(response, constraintViolation([{ field: "due_at", message: "must not be in the past" }]))
    }
    const todo: Todo = {
      todo_id: randomUUID(),
      ...decoded.right,
      due_at: new Date(Date.parse(decoded.right.due_at)).toISOString(),
      created_at: new Date(now()).toISOString()
    }
    todos.set(todo.todo_id, todo)
    response.json(todo)
  })

  app.get(COLLECTION, (request: Request, response) => {
    const query = request.query as Query
    if (query["due_at"] === undefined) return answerPage(response, query, [...todos.values()], COLLECTION, {})
    const date = checkDueDate(query["due_at"], "due_at")
    if (Either.isLeft(date)) {
      const pageViolations = Either.match(parsePageRequest(query), {
        onLeft: (violations) => violations,
        onRight: () => []
      })
      return sendProblem(response, constraintViolation([...date.left, ...pageViolations]))
    }
    answerPage(response, query, dueOn(date.right), COLLECTION, { due_at: date.right })
  })

  app.post(`${COLLECTION}/search`, ...jsonBody(64 * 1024), (request, response) => {
    const decoded = Decoding.decodeAll(SearchRequest, request.body)
    if (Either.isLeft(decoded)) return sendProblem(response, constraintViolation(decoded.left))
    const date = checkDueDate(decoded.right.due_at, "due_at")
    if (Either.isLeft(date)) return sendProblem(response, constraintViolation(date.left))
    answerPage(response, request.query as Query, dueOn(date.right), `${COLLECTION}/search`, {})
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
