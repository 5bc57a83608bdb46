/**
 * `@kasko/express`: kasko's partner API as an Express application (`makeApp`),
 * its OpenAPI document and operation table, and its problem+json answers.
 * The building blocks for resources of your own beside it are in
 * `@kasko/express/toolkit`.
 * @module
 */
export { makeApp, type AppOptions, type RequestObserver } from "./App.js"
export { problemOfCoreError } from "./CoreErrorProblems.js"
export { documentedStatuses, openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
export { asyncApiDocument } from "./AsyncApiDocument.js"
export { OPERATIONS, operationsOf, SCOPES, type Operation, type Scope, type Services } from "./Operations.js"
export { ServiceVersion } from "./ServiceVersion.js"
export {
  constraintViolation,
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  sendProblem,
  type Problem,
  type ProblemAnswer
} from "./Problem.js"
export type { ProtectionOptions } from "./Protection.js"
export type { ProtocolAnswer, ProtocolCall, ProtocolEndpoint } from "./ProtocolEndpoint.js"
export { WebhookPolicy } from "./WebhookOperations.js"
