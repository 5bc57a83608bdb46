/**
 * The OpenAPI 3.0.1 document, generated from the operation table and the same
 * Schemas that validate requests and shape responses (OpenApiSchemas), with
 * what every answer carries (OpenApiResponses). Every body and answer carries
 * a working example.
 */
import { Authentication } from "@kasko/core"
import { ProductCatalogue } from "@kasko/core/transport"
import type { DocumentResponse } from "./Operation.js"
import type { Operation } from "./Operations.js"
import { Components, discriminatorOf, identifierOf } from "./OpenApiSchemas.js"
import {
  headersOf,
  HEADERS,
  HEADERS_REFUSED_EXAMPLE,
  IDEMPOTENCY_KEY_PARAMETER,
  PREFER_PARAMETER,
  ACCEPT_LANGUAGE_PARAMETER,
  PROBLEM_EXAMPLES,
  STATUS_DESCRIPTIONS
} from "./OpenApiResponses.js"
import { ConstraintViolationProblem, PROBLEM_CONTENT_TYPE, Problem } from "./Problem.js"
import type { JsonObject } from "./SchemaLayout.js"

/** What the OpenAPI and AsyncAPI documents say of the service itself: its version, where clients reach it, its base path. */
export interface DocumentSettings {
  /** The API's version (the server package's version). */
  readonly version: string
  /**
   * Where clients reach the service's root (KASKO_PUBLIC_URL), e.g. `https://api.insurer.example`. When absent the
   * document names its servers relative to where it is served (`/`, or the base path): a client then calls the
   * address it read the document from, not one this service guessed for itself.
   */
  readonly serverUrl?: string | undefined
  /** Where the partner API is mounted below the root (e.g. `/partner/car/v1`); the root itself when absent. */
  readonly basePath?: string
  /** The products the API sells, named in its description: the shipped ones when absent. */
  readonly productNames?: ReadonlyArray<string>
}

/** Names as a sentence lists them: `a`, `a and b`, `a, b and c`. */
const productList = (names: ReadonlyArray<string>): string =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`

/** Whether an operation's requests count against a rate limit: its subscription key's, or a public one's address. */
const isRateLimited = (operation: Operation): boolean =>
  operation.scope !== undefined || operation.countedByAddress === true

/**
 * The error statuses the document lists for an operation: 400 (every route refuses ambiguous headers), its own,
 * 401 where it needs credentials, 429 where it is counted, and 500.
 */
const documentedErrorStatuses = (operation: Operation): ReadonlyArray<number> =>
  [
    ...new Set([
      400,
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
    ...(operation.preferReturn ? [PREFER_PARAMETER] : []),
    ...(operation.languageNegotiated ? [ACCEPT_LANGUAGE_PARAMETER] : [])
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
        headers: headersOf(200, rateLimited, operation.document, operation.preferReturn, operation.languageNegotiated),
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
        ? {
            "304": {
              description: STATUS_DESCRIPTIONS[304],
              headers: headersOf(304, rateLimited, operation.document, false, operation.languageNegotiated)
            }
          }
        : {}),
      ...Object.fromEntries(
        errorStatuses.map((status) => [
          String(status),
          problemResponse(
            status,
            headersOf(status, rateLimited),
            components,
            operation.errorAnswers?.[status] ?? {
              description: STATUS_DESCRIPTIONS[status]!,
              example:
                status === 400 && operation.requestBody === undefined
                  ? HEADERS_REFUSED_EXAMPLE
                  : PROBLEM_EXAMPLES[status]!
            }
          )
        ])
      )
    }
  }
}

/** An error status's entry: what it means, the headers it carries, and its problem+json with an example. */
const problemResponse = (
  status: number,
  headers: JsonObject,
  components: Components,
  answer: { readonly description: string; readonly example: object }
): JsonObject => ({
  description: answer.description,
  headers,
  content: {
    [PROBLEM_CONTENT_TYPE]: {
      schema: components.reference(status === 400 ? ConstraintViolationProblem : Problem, "response"),
      example: answer.example
    }
  }
})

const documentationOperation = (
  components: Components,
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
      },
      // what the middleware every route passes answers: the document's routes have no program of their own to fail
      "400": problemResponse(400, headersOf(400, false), components, {
        description: STATUS_DESCRIPTIONS[400]!,
        example: HEADERS_REFUSED_EXAMPLE
      })
    }
  }
})

/** The OpenAPI 3.0.1 document of the operations. */
export const openApiDocument = (operations: ReadonlyArray<Operation>, settings: DocumentSettings): JsonObject => {
  const components = new Components()
  // probes stay at the root when the partner API has a base path: their entries name the root as their server
  const basePath = settings.basePath ?? ""
  const root = settings.serverUrl ?? ""
  const rootServers =
    basePath === "" ? undefined : [{ url: root || "/", description: "The service's root, where its probes answer" }]
  const paths: Record<string, JsonObject> = {}
  for (const operation of operations) {
    paths[operation.path] ??= {}
    paths[operation.path]![operation.method] = operationObject(
      operation,
      components,
      operation.servedAtRoot ? rootServers : undefined
    )
  }
  // what a sandbox key is answered: every JSON answer of an operation taking credentials
  components.markSandboxAnswers(
    new Set(
      operations
        .filter((operation) => operation.scope !== undefined && operation.document === undefined)
        .flatMap((operation) => operation.responses.map(identifierOf))
    )
  )
  return {
    openapi: "3.0.1",
    info: {
      title: "Partner Car Insurance API",
      description: `Product discovery, anonymous price offers and quotes (create, retrieve, activate) for the partner car-insurance products ${productList(settings.productNames ?? ProductCatalogue.PRODUCT_NAMES)}. Errors are application/problem+json (RFC 7807). The activated form of a quote carries its policies twice, with the same content: as \`polices\` (the spelling of the specification's activated example) and as \`policies\` (as the awaiting form spells it). Optional strings accept an empty or blank value as absent.`,
      termsOfService: "https://kasko.example/terms",
      contact: { name: "kasko partner support", email: "partners@kasko.example", url: "https://kasko.example/support" },
      license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
      version: settings.version
    },
    servers: [{ url: `${root}${basePath}` || "/", description: "This kasko service's partner API" }],
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
        components,
        "getOpenApiDocument",
        "This OpenAPI document",
        "The OpenAPI 3.0.1 document of this API.",
        "application/json",
        "The OpenAPI 3.0.1 document"
      ),
      "/asyncapi.json": documentationOperation(
        components,
        "getAsyncApiDocument",
        "The quote events' AsyncAPI document",
        "The AsyncAPI 3 document of the quote events delivered to webhook endpoints: their headers, signatures and bodies.",
        "application/json",
        "The AsyncAPI 3.0.0 document"
      ),
      "/docs": documentationOperation(
        components,
        "getApiReference",
        "The API reference page",
        "Swagger UI rendering this document, served from the service (no CDN).",
        "text/html",
        "An HTML page rendering this document"
      ),
      "/docs/init.js": documentationOperation(
        components,
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
          description: `A JWT naming the partner (\`sub\`, or \`partner_id\` for a partner user's token) with the operation's scope in \`scope\` (space separated): ${Authentication.SCOPES.join(", ")}. Tokens in the query string are ignored.`
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
