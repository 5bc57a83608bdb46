/**
 * The OpenAPI 3.0.1 document, generated from the operation table and the same
 * Schemas that validate requests and shape responses. Effect writes JSON
 * Schema draft-07; this module hoists its definitions into
 * `components.schemas` and rewrites the few keywords OpenAPI 3.0 spells
 * differently.
 */
import { JSONSchema, Schema } from "effect"
import type { Operation } from "./Operations.js"
import { ConstraintViolationProblem, PROBLEM_CONTENT_TYPE, Problem } from "./Problem.js"

export interface DocumentSettings {
  /** The API's version (the server package's version). */
  readonly version: string
  /** Where clients reach the API, e.g. `http://localhost:8080`. */
  readonly serverUrl: string
}

type JsonObject = { [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

const COMPONENT_PREFIX = "#/components/schemas/"

/** Rewrites one draft-07 node as an OpenAPI 3.0 schema object. */
const toOpenApi30 = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(toOpenApi30)
  if (!isObject(node)) return node
  const result: JsonObject = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "$defs" || key === "$id") continue
    // OpenAPI 3.0 requires a non-empty `required`; draft-07 allows []
    if (key === "required" && Array.isArray(value) && value.length === 0) continue
    if (key === "$ref" && typeof value === "string") result[key] = value.replace("#/$defs/", COMPONENT_PREFIX)
    else if (key === "const") result["enum"] = [value]
    else if (key === "examples" && Array.isArray(value)) result["example"] = value[0]
    else if (key === "exclusiveMinimum" && typeof value === "number") {
      result["minimum"] = value
      result["exclusiveMinimum"] = true
    } else if (key === "exclusiveMaximum" && typeof value === "number") {
      result["maximum"] = value
      result["exclusiveMaximum"] = true
    } else result[key] = toOpenApi30(value)
  }
  // draft-07 `anyOf [X, {type: null}]` is OpenAPI 3.0's `nullable`
  const anyOf = result["anyOf"]
  if (Array.isArray(anyOf) && anyOf.some((member) => isObject(member) && member["type"] === "null")) {
    const others = anyOf.filter((member) => !(isObject(member) && member["type"] === "null"))
    delete result["anyOf"]
    Object.assign(result, others.length === 1 ? (others[0] as JsonObject) : { anyOf: others }, { nullable: true })
  }
  return result
}

/** Collects schemas under their identifiers into `components.schemas`. */
class Components {
  readonly schemas: Record<string, unknown> = {}

  /** A `$ref` to the schema, registered under `name`. */
  reference(name: string, schema: Schema.Schema.AnyNoContext, side: "request" | "response"): JsonObject {
    if (!(name in this.schemas)) {
      const documented = side === "request" ? Schema.encodedBoundSchema(schema) : Schema.typeSchema(schema)
      const draft07 = JSONSchema.make(documented) as unknown as JsonObject
      for (const [definition, definitionSchema] of Object.entries((draft07["$defs"] as JsonObject | undefined) ?? {})) {
        if (definition !== name) this.schemas[definition] ??= toOpenApi30(definitionSchema)
      }
      const own = draft07["$ref"] === `#/$defs/${name}` ? (draft07["$defs"] as JsonObject)[name] : draft07
      this.schemas[name] = toOpenApi30(own)
    }
    return { $ref: `${COMPONENT_PREFIX}${name}` }
  }
}

const identifierOf = (schema: Schema.Schema.AnyNoContext): string => {
  const identifier = schema.ast.annotations[Symbol.for("effect/annotation/Identifier")]
  if (typeof identifier !== "string") throw new Error("every documented schema needs an identifier annotation")
  return identifier
}

const STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: "Constraint Violation: the request breaks one or more rules, each named in `violations`",
  401: "Unauthorized: missing or invalid credentials, or the token lacks the operation's scope. WWW-Authenticate says which (RFC 6750): no error code when no credentials were sent, error=\"invalid_token\", or error=\"insufficient_scope\" with scope=\"…\". A missing scope answers 401, not RFC 6750's 403, as the specification requires.",
  404: "Not Found: unknown, expired (30 days) or another partner's resource",
  405: "Method Not Allowed (see Allow)",
  413: "Payload Too Large: the body is over the size limit",
  415: "Unsupported Media Type: the body must be application/json",
  422: "Unprocessable Entity: the Idempotency-Key was used with a different request in the last 24 hours",
  429: "Too Many Requests: the subscription key is over its rate limit (see Retry-After and RateLimit-*)",
  500: "Internal Server Error",
  503: "Service Unavailable: storage or pricing is temporarily unavailable (see Retry-After)"
}

/** The OpenAPI 3.0.1 document of the operations. */
export const openApiDocument = (operations: ReadonlyArray<Operation>, settings: DocumentSettings): JsonObject => {
  const components = new Components()
  const problemContent = (status: number) => ({
    [PROBLEM_CONTENT_TYPE]: {
      schema:
        status === 400
          ? components.reference("ConstraintViolationProblem", ConstraintViolationProblem, "response")
          : components.reference("Problem", Problem, "response")
    }
  })
  const paths: Record<string, JsonObject> = {}
  for (const operation of operations) {
    const responseSchemas = operation.responses.map((schema) => components.reference(identifierOf(schema), schema, "response"))
    const errorStatuses = [...new Set([...operation.errorStatuses, ...(operation.scope === undefined ? [] : [401, 429]), 500])].sort()
    paths[operation.path] ??= {}
    paths[operation.path]![operation.method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      description:
        operation.scope === undefined
          ? `${operation.description} Public: no credentials needed.`
          : `${operation.description} Requires a bearer token with the scope \`${operation.scope}\` and the partner's subscription key.`,
      security: operation.scope === undefined ? [] : [{ bearerToken: [], subscriptionKey: [] }],
      ...(operation.scope === undefined ? {} : { "x-required-scopes": [operation.scope] }),
      ...(operation.pathParameters.length === 0 && !operation.idempotent
        ? {}
        : {
            parameters: [
              ...operation.pathParameters.map((parameter) => ({
                name: parameter.name,
                in: "path",
                required: true,
                description: parameter.description,
                schema: parameter.schema
              })),
              ...(operation.idempotent
                ? [
                    {
                      name: "Idempotency-Key",
                      in: "header",
                      required: false,
                      description:
                        "Makes a retry safe: the same key with the same body within 24 hours answers the original quote and creates none; the same key with another body answers 422. Keys are per partner.",
                      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" }
                    }
                  ]
                : [])
            ]
          }),
      ...(operation.requestBody === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: components.reference(identifierOf(operation.requestBody), operation.requestBody, "request")
                }
              }
            }
          }),
      responses: {
        "200": {
          description: operation.responseDescription,
          content: {
            "application/json": { schema: responseSchemas.length === 1 ? responseSchemas[0] : { oneOf: responseSchemas } }
          }
        },
        ...Object.fromEntries(
          errorStatuses.map((status) => [String(status), { description: STATUS_DESCRIPTIONS[status], content: problemContent(status) }])
        )
      }
    }
  }
  return {
    openapi: "3.0.1",
    info: {
      title: "Partner Car Insurance API",
      description:
        "Product discovery, anonymous price offers and quotes (create, retrieve, activate) for the partner car-insurance products insurance-car-leasing and insurance-car-standalone. Errors are application/problem+json (RFC 7807). The activated form of a quote carries its policies twice, with the same content: as `polices` (the spelling of the specification's activated example) and as `policies` (as the awaiting form spells it).",
      termsOfService: "https://kasko.example/terms",
      contact: { name: "kasko partner support", email: "partners@kasko.example", url: "https://kasko.example/support" },
      license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      version: settings.version
    },
    servers: [{ url: settings.serverUrl, description: "This kasko service" }],
    externalDocs: { description: "Partner car insurance quoting: the specification", url: "https://kasko.example/docs/partner-car-insurance-api" },
    tags: [
      { name: "products", description: "Product definitions: parameters, allowed values, features" },
      { name: "offers", description: "Anonymous, short-lived price offers" },
      { name: "quotes", description: "Quotes for named parties, valid 30 days: create, retrieve, activate" },
      { name: "operations", description: "Liveness and readiness" },
      { name: "documentation", description: "This document and its reference page" }
    ],
    paths: {
      ...paths,
      "/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          tags: ["documentation"],
          summary: "This OpenAPI document",
          responses: { "200": { description: "The OpenAPI 3.0.1 document", content: { "application/json": { schema: { type: "object" } } } } }
        }
      },
      "/docs": {
        get: {
          operationId: "getApiReference",
          tags: ["documentation"],
          summary: "The API reference page",
          responses: { "200": { description: "An HTML page rendering this document", content: { "text/html": { schema: { type: "string" } } } } }
        }
      },
      "/docs/init.js": {
        get: {
          operationId: "getApiReferenceScript",
          tags: ["documentation"],
          summary: "The script that starts the reference page (its assets are under /docs/assets/)",
          responses: { "200": { description: "JavaScript", content: { "application/javascript": { schema: { type: "string" } } } } }
        }
      }
    },
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "A JWT naming the partner (`sub`, or `partner_id` for a partner user's token) with the operation's scope in `scope` (space separated): products:read, offers:create, quotes:create, quotes:read, quotes:activate. Tokens in the query string are ignored."
        },
        subscriptionKey: {
          type: "apiKey",
          in: "header",
          name: "ocp-apim-subscription-key",
          description: "The partner's subscription key; it must belong to the token's partner."
        }
      }
    }
  }
}
