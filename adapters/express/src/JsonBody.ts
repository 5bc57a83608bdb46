/**
 * JSON request bodies for plain Express routes (the todo-list showcase): the
 * same reader a kasko operation's program uses (RequestBody), as middleware
 * that sets `request.body` or answers the problem.
 */
import { Cause, Effect, Exit, Option } from "effect"
import type { RequestHandler } from "express"
import { PROBLEMS, sendProblem } from "./Problem.js"
import { readJsonBody } from "./RequestBody.js"

/** The middleware that admits a JSON body of at most `limitBytes`. */
export const jsonBody = (limitBytes: number): Array<RequestHandler> => [
  (request, response, next) => {
    Effect.runCallback(readJsonBody(request, limitBytes), {
      onExit: (exit) => {
        if (Exit.isSuccess(exit)) {
          request.body = exit.value
          return next()
        }
        const failure = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
        sendProblem(response, failure?.answer ?? { problem: PROBLEMS.internal })
      }
    })
  }
]
