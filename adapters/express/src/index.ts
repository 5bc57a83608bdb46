export { makeApp, type AppOptions } from "./App.js"
export { singlePartner, type Authenticate, type Principal } from "./Authentication.js"
export {
  bearerAuthentication,
  SUBSCRIPTION_KEY_HEADER,
  type CredentialChecks,
  type VerifiedToken
} from "./BearerAuthentication.js"
export { problemOfCoreError } from "./CoreErrorProblems.js"
export { openApiDocument, type DocumentSettings } from "./OpenApiDocument.js"
export { OPERATIONS, SCOPES, type Operation, type Scope, type Services } from "./Operations.js"
export { constraintViolation, PROBLEM_CONTENT_TYPE, PROBLEMS, sendProblem, type ProblemAnswer } from "./Problem.js"
export { redact } from "./RequestLog.js"
