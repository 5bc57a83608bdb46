/**
 * The OpenAPI 3.0.1 document, generated from the operation table and the same
 * Schemas that validate requests and shape responses. Effect writes JSON
 * Schema draft 2020-12 (laid out as the document always has, SchemaLayout);
 * this module hoists the operations' schemas into `components.schemas`,
 * inlines the other definitions, and rewrites the few keywords OpenAPI 3.0
 * spells differently. Every body and answer carries a working example.
 */
import { Schema, SchemaAST } from "effect"
import { type DocumentResponse, OPEN_API_SCHEMA } from "./Operation.js"
import type { Operation } from "./Operations.js"
import { ConstraintViolationProblem, PROBLEM_CONTENT_TYPE, PROBLEMS, Problem } from "./Problem.js"
import {
  isObject,
  isPlainInteger,
  type JsonObject,
  jsonSchemaOf,
  layout,
  subschemasRewritten,
  tidy
} from "./SchemaLayout.js"

export interface DocumentSettings {
  /** The API's version (the server package's version). */
  readonly version: string
  /** Where clients reach the service's root, e.g. `http://localhost:8080`. */
  readonly serverUrl: string
  /** Where the partner API is mounted below the root (e.g. `/partner/car/v1`); the root itself when absent. */
  readonly basePath?: string
}

const COMPONENT_PREFIX = "#/components/schemas/"
const DEFINITION_PREFIX = "#/$defs/"

/**
 * Rewrites one draft 2020-12 schema as an OpenAPI 3.0 schema object:
 * references to definitions are inlined, except where a definition refers to
 * itself, which becomes a component.
 */
class Converter {
  private readonly expanding = new Set<string>()

  constructor(
    private readonly definitions: JsonObject,
    private readonly components: Record<string, unknown>
  ) {}

  schema(node: unknown): unknown {
    if (!isObject(node)) return node
    const reference = node["$ref"]
    if (typeof reference === "string" && reference.startsWith(DEFINITION_PREFIX))
      return this.definition(reference.slice(DEFINITION_PREFIX.length))
    const result: JsonObject = {}
    for (const [key, value] of Object.entries(tidy(node))) {
      if (key === "$schema" || key === "$defs" || key === "$id" || key === "title") continue
      // OpenAPI 3.0 requires a non-empty `required`; JSON Schema allows []
      if (key === "required" && Array.isArray(value) && value.length === 0) continue
      // JSON numbers have no bounds of their own: an integer is only an integer
      if ((key === "minimum" || key === "maximum") && isPlainInteger(node)) continue
      const subschemas = subschemasRewritten(key, value, (schema) => this.schema(schema))
      if (subschemas !== undefined) result[key] = subschemas.rewritten
      else if (key === "const") result["enum"] = [value]
      else if (key === "examples" && Array.isArray(value)) result["example"] = value[0]
      else if (key === "exclusiveMinimum" && typeof value === "number") {
        result["minimum"] = value
        result["exclusiveMinimum"] = true
      } else if (key === "exclusiveMaximum" && typeof value === "number") {
        result["maximum"] = value
        result["exclusiveMaximum"] = true
      } else result[key] = value
    }
    return layout(nullableOf(result), false)
  }

  private definition(name: string): unknown {
    if (this.expanding.has(name) || name in this.components) {
      this.components[name] ??= {}
      return { $ref: `${COMPONENT_PREFIX}${name}` }
    }
    this.expanding.add(name)
    const inlined = this.schema(this.definitions[name] ?? {})
    this.expanding.delete(name)
    if (name in this.components) this.components[name] = inlined
    return inlined
  }
}

/** JSON Schema's `anyOf [X, {type: null}]` is OpenAPI 3.0's `nullable`. */
const nullableOf = (schema: JsonObject): JsonObject => {
  const anyOf = schema["anyOf"]
  if (!Array.isArray(anyOf) || !anyOf.some((member) => isObject(member) && member["type"] === "null")) return schema
  const others = anyOf.filter((member) => !(isObject(member) && member["type"] === "null"))
  const { anyOf: _anyOf, ...rest } = schema
  return { ...rest, ...(others.length === 1 ? (others[0] as JsonObject) : { anyOf: others }), nullable: true }
}

/** Collects the documented schemas under their identifiers into `components.schemas`. */
class Components {
  readonly schemas: Record<string, unknown> = {}

  /** A `$ref` to the schema, registered under its identifier. */
  reference(schema: Schema.Top, side: "request" | "response"): JsonObject {
    const name = identifierOf(schema)
    if (!(name in this.schemas)) {
      this.schemas[name] = {}
      this.schemas[name] =
        SchemaAST.resolveAt<JsonObject>(OPEN_API_SCHEMA)(schema.ast) ??
        this.converted(name, side === "request" ? Schema.toEncoded(schema) : Schema.toType(schema))
    }
    return { $ref: `${COMPONENT_PREFIX}${name}` }
  }

  private converted(name: string, documented: Schema.Top): unknown {
    const generated = jsonSchemaOf(documented)
    const definitions: JsonObject = { ...generated.definitions }
    const own = generated.schema["$ref"] === `${DEFINITION_PREFIX}${name}` ? definitions[name] : generated.schema
    return new Converter(definitions, this.schemas).schema(own)
  }
}

/**
 * OpenAPI 3.0's discriminator of a `oneOf` of components: each alternative's one value of `propertyName`, read
 * from the generated components, so the mapping cannot disagree with the schemas.
 */
const discriminatorOf = (
  propertyName: string,
  references: ReadonlyArray<JsonObject>,
  schemas: Readonly<Record<string, unknown>>
): JsonObject => {
  const mapping: Record<string, string> = {}
  for (const reference of references) {
    const name = String(reference["$ref"]).slice(COMPONENT_PREFIX.length)
    const component = schemas[name]
    const property =
      isObject(component) && isObject(component["properties"]) ? component["properties"][propertyName] : undefined
    const values = isObject(property) ? property["enum"] : undefined
    const required = isObject(component) && Array.isArray(component["required"]) ? component["required"] : []
    if (
      !Array.isArray(values) ||
      values.length !== 1 ||
      typeof values[0] !== "string" ||
      !required.includes(propertyName)
    )
      throw new Error(`${name} must require ${propertyName} with one string value to be told apart by it`)
    mapping[values[0]] = String(reference["$ref"])
  }
  return { propertyName, mapping }
}

const identifierOf = (schema: Schema.Top): string => {
  const identifier = SchemaAST.resolveIdentifier(schema.ast)
  if (identifier === undefined) throw new Error("every documented schema needs an identifier annotation")
  return identifier
}

const STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  304: "Not Modified: the client's copy (its ETag in If-None-Match) is the current version; no body",
  400: "Constraint Violation: the request breaks one or more rules, each named in `violations`",
  401: 'Unauthorized: missing or invalid credentials, or the token lacks the operation\'s scope. `detail` and WWW-Authenticate (RFC 6750) say which: no error code when no credentials were sent; error="invalid_request" for a malformed Authorization header or a missing subscription key; error="invalid_token" with error_description for a refused token or subscription key; error="insufficient_scope" with scope="…". A missing scope answers 401, not RFC 6750\'s 403, as the specification requires.',
  404: "Not Found: unknown, expired (30 days) or another partner's resource",
  409: "Conflict: the partner has as many webhook subscriptions as one partner may have; delete one first",
  413: "Payload Too Large: the body is over the size limit",
  415: "Unsupported Media Type: the body must be application/json",
  422: "Unprocessable Entity: the Idempotency-Key was used with a different request in the last 24 hours",
  429: "Too Many Requests: the subscription key is over its rate limit (see Retry-After and RateLimit-*)",
  500: "Internal Server Error",
  503: "Service Unavailable: storage, pricing or the identity provider is temporarily unavailable (see Retry-After)"
}

const PROBLEM_EXAMPLES: Readonly<Record<number, object>> = {
  400: {
    ...PROBLEMS.constraintViolation,
    violations: [{ field: "product.parameters.vehicle_price", message: "must be between 1000 and 10000000" }]
  },
  401: { ...PROBLEMS.unauthorized, detail: "The access token was refused: the token has expired." },
  404: PROBLEMS.notFound,
  409: {
    ...PROBLEMS.subscriptionLimitReached,
    detail:
      "A partner may have at most 10 webhook subscriptions: delete one (DELETE /webhooks/subscriptions/{subscription_id}) before adding another."
  },
  413: PROBLEMS.payloadTooLarge,
  415: { ...PROBLEMS.unsupportedMediaType, detail: "The body must be application/json." },
  422: {
    ...PROBLEMS.idempotencyKeyReused,
    detail: "This Idempotency-Key was used with a different request in the last 24 hours."
  },
  429: PROBLEMS.tooManyRequests,
  500: PROBLEMS.internal,
  503: PROBLEMS.serviceUnavailable
}

const HEADERS = {
  XRequestId: {
    description:
      "The request's id: the client's X-Request-Id when it is a safe token, a new UUID otherwise; it names the request in the service's log",
    schema: { type: "string", maxLength: 128 }
  },
  RetryAfter: { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } },
  WWWAuthenticate: {
    description: "The Bearer challenge (RFC 6750): error, error_description and, for a missing scope, scope",
    schema: { type: "string" },
    example: 'Bearer realm="kasko", error="invalid_token", error_description="the token has expired"'
  },
  RateLimitLimit: { description: "Requests the subscription key may make per window", schema: { type: "integer" } },
  RateLimitRemaining: { description: "Requests left in the current window", schema: { type: "integer" } },
  RateLimitReset: { description: "Seconds until the window resets", schema: { type: "integer" } },
  ETag: {
    description: "The document's version: the same until its content changes (an IPID: until the tariff version does)",
    schema: { type: "string" }
  },
  CacheControl: {
    description: "public, max-age=… for public documents (revalidate with If-None-Match); no-store for private ones",
    schema: { type: "string" }
  },
  ContentDisposition: {
    description: "inline, with the file name to save the document under",
    schema: { type: "string" }
  },
  PreferenceApplied: {
    description: "return=representation when the answer honours the request's Prefer: return=representation (RFC 7240)",
    schema: { type: "string", enum: ["return=representation"] }
  }
} as const

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` })

const headersOf = (
  status: number,
  rateLimited: boolean,
  document?: DocumentResponse,
  preferReturn?: boolean
): JsonObject => ({
  "X-Request-Id": header("XRequestId"),
  ...(preferReturn === true && status === 200 ? { "Preference-Applied": header("PreferenceApplied") } : {}),
  ...(document !== undefined && (status === 200 || status === 304)
    ? {
        "Cache-Control": header("CacheControl"),
        ...(document.maxAgeSeconds === undefined ? {} : { ETag: header("ETag") }),
        ...(status === 200 ? { "Content-Disposition": header("ContentDisposition") } : {})
      }
    : {}),
  ...(status === 401 ? { "WWW-Authenticate": header("WWWAuthenticate") } : {}),
  ...(status === 429 || status === 503 ? { "Retry-After": header("RetryAfter") } : {}),
  // a document caches may keep (public, max-age) answers without them: a shared cache would hand them on
  ...(rateLimited && (status === 429 || ((status === 200 || status === 304) && document?.maxAgeSeconds === undefined))
    ? {
        "RateLimit-Limit": header("RateLimitLimit"),
        "RateLimit-Remaining": header("RateLimitRemaining"),
        "RateLimit-Reset": header("RateLimitReset")
      }
    : {})
})

const PREFER_PARAMETER = {
  name: "Prefer",
  in: "header",
  required: false,
  description:
    "return=representation (RFC 7240) asks for the resource's state in the answer in place of the empty JSON object; the answer then carries Preference-Applied: return=representation",
  schema: { type: "string" },
  example: "return=representation"
}

const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the same key with the same body within 24 hours answers the original quote and creates none; the same key with another body answers 422. Keys are per partner.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  example: "order-2026-0042-quote"
}

/** Whether an operation's requests count against a rate limit: its subscription key's, or a public one's address. */
const isRateLimited = (operation: Operation): boolean =>
  operation.scope !== undefined || operation.countedByAddress === true

/** The error statuses the document lists for an operation: its own, 401 where it needs credentials, 429 where it is counted, and 500. */
const documentedErrorStatuses = (operation: Operation): ReadonlyArray<number> =>
  [
    ...new Set([
      ...(operation.errorStatuses ?? []),
      ...(operation.scope === undefined ? [] : [401]),
      ...(isRateLimited(operation) ? [429] : []),
      500
    ])
  ].sort()

/** Whether an operation answers 304 to a client that has the current version (a public document with an ETag). */
const answersNotModified = (operation: Operation): boolean => operation.document?.maxAgeSeconds !== undefined

/** Every status the OpenAPI document lists for an operation, 200 first: the answers a client (or a metric) can expect. */
export const documentedStatuses = (operation: Operation): ReadonlyArray<number> => [
  200,
  ...(answersNotModified(operation) ? [304] : []),
  ...documentedErrorStatuses(operation)
]

/** The 200 content of an operation that answers a document: its bytes, in its media type. */
const documentContent = (document: DocumentResponse): JsonObject => ({
  [document.mediaType]: { schema: { type: "string", format: "binary" } }
})

/** The document's entry for one operation. */
const operationObject = (
  operation: Operation,
  components: Components,
  rootServers: ReadonlyArray<object> | undefined
): JsonObject => {
  const rateLimited = isRateLimited(operation)
  const credentialed = operation.scope !== undefined
  const errorStatuses = documentedErrorStatuses(operation)
  const responseSchemas = operation.responses.map((schema) => components.reference(schema, "response"))
  const [onlyExample] = operation.responseExamples
  const parameters = [
    ...(operation.pathParameters ?? []).map((parameter) => ({ ...parameter, in: "path", required: true })),
    ...(operation.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...(operation.preferReturn ? [PREFER_PARAMETER] : [])
  ]
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: credentialed
      ? `${operation.description} Requires a bearer token with the scope \`${operation.scope}\` and the partner's subscription key.`
      : `${operation.description} Public: no credentials needed.`,
    security: credentialed ? [{ bearerToken: [], subscriptionKey: [] }] : [],
    ...(credentialed ? { "x-required-scopes": [operation.scope] } : {}),
    ...(rootServers === undefined ? {} : { servers: rootServers }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(operation.requestBody === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: components.reference(operation.requestBody, "request"),
                example: operation.requestExample
              }
            }
          }
        }),
    responses: {
      "200": {
        description: operation.responseDescription,
        headers: headersOf(200, rateLimited, operation.document, operation.preferReturn),
        content:
          operation.document !== undefined
            ? documentContent(operation.document)
            : {
                "application/json": {
                  schema:
                    responseSchemas.length === 1
                      ? responseSchemas[0]
                      : {
                          oneOf: responseSchemas,
                          ...(operation.discriminator === undefined
                            ? {}
                            : {
                                discriminator: discriminatorOf(
                                  operation.discriminator,
                                  responseSchemas,
                                  components.schemas
                                )
                              })
                        },
                  ...(operation.responseExamples.length === 1 && onlyExample !== undefined
                    ? { example: onlyExample.value }
                    : {
                        examples: Object.fromEntries(
                          operation.responseExamples.map(({ name, summary, value }) => [name, { summary, value }])
                        )
                      })
                }
              }
      },
      ...(answersNotModified(operation)
        ? { "304": { description: STATUS_DESCRIPTIONS[304], headers: headersOf(304, rateLimited, operation.document) } }
        : {}),
      ...Object.fromEntries(
        errorStatuses.map((status) => [
          String(status),
          {
            description: STATUS_DESCRIPTIONS[status],
            headers: headersOf(status, rateLimited),
            content: {
              [PROBLEM_CONTENT_TYPE]: {
                schema: components.reference(status === 400 ? ConstraintViolationProblem : Problem, "response"),
                example: PROBLEM_EXAMPLES[status]
              }
            }
          }
        ])
      )
    }
  }
}

const documentationOperation = (
  operationId: string,
  summary: string,
  description: string,
  mediaType: string,
  answer: string
) => ({
  get: {
    operationId,
    tags: ["documentation"],
    summary,
    description: `${description} Public: no credentials needed.`,
    security: [],
    responses: {
      "200": {
        description: answer,
        content: { [mediaType]: { schema: mediaType === "application/json" ? { type: "object" } : { type: "string" } } }
      }
    }
  }
})

/** The OpenAPI 3.0.1 document of the operations. */
export const openApiDocument = (operations: ReadonlyArray<Operation>, settings: DocumentSettings): JsonObject => {
  const components = new Components()
  // probes stay at the root when the partner API has a base path: their entries name the root as their server
  const basePath = settings.basePath ?? ""
  const rootServers =
    basePath === ""
      ? undefined
      : [{ url: settings.serverUrl, description: "The service's root, where its probes answer" }]
  const paths: Record<string, JsonObject> = {}
  for (const operation of operations) {
    paths[operation.path] ??= {}
    paths[operation.path]![operation.method] = operationObject(
      operation,
      components,
      operation.servedAtRoot ? rootServers : undefined
    )
  }
  return {
    openapi: "3.0.1",
    info: {
      title: "Partner Car Insurance API",
      description:
        "Product discovery, anonymous price offers and quotes (create, retrieve, activate) for the partner car-insurance products insurance-car-leasing and insurance-car-standalone. Errors are application/problem+json (RFC 7807). The activated form of a quote carries its policies twice, with the same content: as `polices` (the spelling of the specification's activated example) and as `policies` (as the awaiting form spells it). Optional strings accept an empty or blank value as absent.",
      termsOfService: "https://kasko.example/terms",
      contact: { name: "kasko partner support", email: "partners@kasko.example", url: "https://kasko.example/support" },
      license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      version: settings.version
    },
    servers: [{ url: `${settings.serverUrl}${basePath}`, description: "This kasko service's partner API" }],
    externalDocs: {
      description: "Partner car insurance quoting: the specification",
      url: "https://kasko.example/docs/partner-car-insurance-api"
    },
    tags: [
      { name: "products", description: "Product definitions: parameters, allowed values, features" },
      { name: "offers", description: "Anonymous, short-lived price offers" },
      { name: "quotes", description: "Quotes for named parties, valid 30 days: create, retrieve, activate" },
      {
        name: "webhooks",
        description:
          "Endpoints the partner's quote events are delivered to, signed per Standard Webhooks; the events themselves are described at /asyncapi.json"
      },
      {
        name: "documents",
        description:
          "The documents offers and quotes link to, as PDF: a product variant's information document (IPID), the privacy policy, a quote's document for the customer"
      },
      { name: "operations", description: "Liveness and readiness" },
      { name: "documentation", description: "This document and its reference page" }
    ],
    paths: {
      ...paths,
      "/openapi.json": documentationOperation(
        "getOpenApiDocument",
        "This OpenAPI document",
        "The OpenAPI 3.0.1 document of this API.",
        "application/json",
        "The OpenAPI 3.0.1 document"
      ),
      "/asyncapi.json": documentationOperation(
        "getAsyncApiDocument",
        "The quote events' AsyncAPI document",
        "The AsyncAPI 3 document of the quote events delivered to webhook endpoints: their headers, signatures and bodies.",
        "application/json",
        "The AsyncAPI 3.0.0 document"
      ),
      "/docs": documentationOperation(
        "getApiReference",
        "The API reference page",
        "Swagger UI rendering this document, served from the service (no CDN).",
        "text/html",
        "An HTML page rendering this document"
      ),
      "/docs/init.js": documentationOperation(
        "getApiReferenceScript",
        "The script that starts the reference page",
        "Starts Swagger UI on the reference page; its assets are served under /docs/assets/.",
        "application/javascript",
        "JavaScript"
      )
    },
    components: {
      schemas: components.schemas,
      headers: HEADERS,
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
