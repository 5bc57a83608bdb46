/**
 * `@kasko/express/toolkit`: the middleware and helpers kasko's own routes are
 * built from, for an application that serves resources of its own beside
 * kasko's (the todo-list example): bounded JSON bodies, request ids and logs,
 * problem+json fallbacks, security headers and CORS, and pagination.
 */
export { jsonBody } from "./JsonBody.js"
export { MAX_JSON_COLLECTION, MAX_JSON_DEPTH } from "./RequestBody.js"
export { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
export { requestId } from "./RequestId.js"
export { redact, requestLog } from "./RequestLog.js"
export { clientAddressKey, corsFor, isTrustedProxy, securityHeaders } from "./Protection.js"
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  Page,
  pageHref,
  pageOf,
  parsePageRequest,
  type PageOf,
  type PageRequest
} from "./Pagination.js"
