/**
 * JSON request bodies for the todo routes: the reader a kasko operation's
 * program uses (`readJsonBody` of @kasko/express/toolkit), as Express
 * middleware that sets `request.body` or answers the problem.
 */
import { PROBLEMS, sendProblem } from "@kasko/express"
import { readJsonBody } from "@kasko/express/toolkit"
import { Cause, Effect, Exit, Option } from "effect"
import type { RequestHandler } from "express"

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
