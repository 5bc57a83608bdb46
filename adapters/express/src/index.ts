export { makeApp, type AppOptions } from "./App.js"
export { problemOfCoreError } from "./CoreErrorProblems.js"
export { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
export { OPERATIONS, SCOPES, type Operation, type Scope, type Services } from "./Operations.js"
export { constraintViolation, PROBLEM_CONTENT_TYPE, PROBLEMS, sendProblem, type Problem, type ProblemAnswer } from "./Problem.js"
export { redact } from "./RequestLog.js"
export { jsonBody } from "./JsonBody.js"
export { MAX_JSON_COLLECTION, MAX_JSON_DEPTH } from "./RequestBody.js"
export { installMethodNotAllowed, installProblemFallbacks } from "./ProblemHandlers.js"
export { requestId } from "./RequestId.js"
export { requestLog } from "./RequestLog.js"
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
export { corsFor, securityHeaders, type ProtectionOptions } from "./Protection.js"
