/**
 * `@kasko/express/toolkit`: the middleware and helpers kasko's own routes are
 * built from, for an application that serves resources of its own beside
 * kasko's (the todo-list example): the bounded JSON body reader, request ids
 * and logs, problem+json fallbacks, security headers and CORS.
 * @module
 */
export { type BodyRefused, MAX_JSON_COLLECTION, MAX_JSON_DEPTH, readJsonBody } from "./RequestBody.js"
export { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
export { requestId } from "./RequestId.js"
export { redact, requestLog } from "./RequestLog.js"
export { clientAddressKey, corsFor, isTrustedProxy, securityHeaders } from "./Protection.js"
