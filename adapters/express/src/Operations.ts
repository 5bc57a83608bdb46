/**
 * The API's operations (spec §4, plus health and readiness): one table that
 * drives the request dispatch, the 405 answers and the OpenAPI document, so the
 * three can never drift apart.
 */
import {
  Authentication,
  Examples,
  type IdGenerator,
  type QuoteStore,
  QuotingService,
  type RateLimiter,
  Readiness,
  type TariffBook
} from "@kasko/core"
import { Offer, ProductCatalogue, Quote, QuoteRequest } from "@kasko/core/transport"
import { Effect, Schema } from "effect"
import { EmptyAnswer, replyWith, type OperationOf, type PathParameter } from "./Operation.js"
import { languageHeaders, languageOf } from "./ContentLanguage.js"
import { prefersRepresentation, REPRESENTATION_APPLIED } from "./Preferences.js"
import { WEBHOOK_OPERATIONS, type WebhookServices } from "./WebhookOperations.js"
import { documentOperationsOf, type DocumentServices } from "./DocumentOperations.js"
import { ServiceVersion } from "./ServiceVersion.js"

/** The services a request's program uses; the composition root provides them once. */
export type Services =
  | QuoteStore.QuoteStore
  | IdGenerator.IdGenerator
  | TariffBook.TariffBook
  | Readiness.Readiness
  | Authentication.Authentication
  | RateLimiter.RateLimiter
  | WebhookServices
  | DocumentServices

/** The scopes a token may carry, one per operation. */
export const SCOPES = Authentication.SCOPES
/** One of the scopes a token may carry (`offers:create`, `quotes:read`, …), each granting operations of the API. */
export type Scope = Authentication.Scope

export type { AnswerExample, OperationRequest, PathParameter } from "./Operation.js"

/** An operation of the partner API, on the services the composition root provides. */
export type Operation = OperationOf<Services>

/** What activation answers a client that sends `Prefer: return=representation`: the quote's state and expiry. */
export const ActivationAnswer = Quote.QuoteActivation.annotate({
  identifier: "ActivationAnswer",
  description:
    "The quote's state and expiry, answered to `Prefer: return=representation` (RFC 7240) in place of the empty object"
})

export const HealthAnswer = Schema.Struct({
  status: Schema.Literals(["ok", "ready"]),
  version: Schema.optionalKey(Schema.String.annotate({ description: "The version of kasko serving the request" }))
}).annotate({
  identifier: "HealthAnswer"
})

const answerActivated = replyWith(EmptyAnswer)
const answerActivation = replyWith(ActivationAnswer, REPRESENTATION_APPLIED)
const answerHealth = replyWith(HealthAnswer)

const EXAMPLE_QUOTE = Examples.quoteAnswer()

const quoteIdParameter: PathParameter = {
  name: "quote_id",
  description: "The quote's id, as answered when it was created",
  schema: { type: "string", format: "uuid" },
  example: EXAMPLE_QUOTE.quote_id
}

/**
 * The operations of an API selling a catalogue's products: their answers encoded, and the OpenAPI document written,
 * with the catalogue's names (product, feature, quoted product, coverage, vehicle code) as the enums. Made once per
 * catalogue.
 */
export const operationsOf = ProductCatalogue.perCatalogue((catalogue): ReadonlyArray<Operation> => {
  const ProductDefinitionAnswer = ProductCatalogue.definitionSchemaOf(catalogue).annotate({
    identifier: "ProductDefinition"
  })
  const PriceOfferAnswer = Offer.priceOfferSchemaOf(catalogue).annotate({ identifier: "PriceOffer" })
  const quoteSchemas = Quote.quoteSchemasOf(catalogue)
  const QuoteAnswer = quoteSchemas.Quote.annotate({ identifier: "Quote" })
  const ActivatedQuoteAnswer = quoteSchemas.ActivatedQuote.annotate({ identifier: "ActivatedQuote" })

  // the documents show the catalogue's names as enums; answers are written with the names as they are, so that a
  // quote stored under a product or name this catalogue no longer has is answered as it was stored
  const answerProduct = {
    da: replyWith(ProductCatalogue.AnyProductDefinition, languageHeaders("da")),
    en: replyWith(ProductCatalogue.AnyProductDefinition, languageHeaders("en"))
  }
  const answerOffer = replyWith(Offer.PriceOfferAnswer)
  const answerQuote = replyWith(Quote.QUOTE_ANSWERS.Quote)
  const answerActivatedQuote = replyWith(Quote.QUOTE_ANSWERS.ActivatedQuote)
  return [
    {
      operationId: "getProduct",
      method: "get",
      path: "/products/{product_name}",
      tag: "products",
      summary: "Read a product's definition",
      description:
        "The product's parameters with their types and allowed values, and its features (spec §2.1). Titles and descriptions are in Danish, or in English when `Accept-Language` asks for it (the answer's `Content-Language` says which).",
      languageNegotiated: true,
      scope: "products:read",
      pathParameters: [
        {
          name: "product_name",
          description: "The product",
          schema: { type: "string", enum: [...catalogue.productNames] },
          example: catalogue.productNames[0]!
        }
      ],
      responses: [ProductDefinitionAnswer],
      responseDescription: "The product definition",
      responseExamples: [
        {
          name: "leasing",
          summary: "The leasing product",
          value: catalogue.definition(catalogue.productNames[0]!)
        }
      ],
      errorStatuses: [404],
      handle: ({ params, headers, products }) => {
        const language = languageOf(headers)
        return Effect.map(
          QuotingService.getProduct(params["product_name"] ?? "", language, products),
          answerProduct[language]
        )
      }
    },
    {
      operationId: "createOffer",
      method: "post",
      path: "/insurance/car/offers",
      tag: "offers",
      summary: "Get an anonymous price offer",
      description:
        "Prices the product parameters alone (spec §2.6); nothing is stored. A quote request's policy and agent may come along, so one body serves both endpoints: they are ignored.",
      scope: "offers:create",
      requestBody: Offer.offerRequestSchemaOf(catalogue).annotate({ identifier: "OfferRequest" }),
      requestExample: Examples.offerRequest(),
      responses: [PriceOfferAnswer],
      responseDescription: "The price offer",
      responseExamples: [{ name: "offer", summary: "A Standard leasing offer", value: Examples.priceOfferAnswer() }],
      errorStatuses: [400, 413, 415, 503],
      noStore: true,
      handle: ({ body, products }) => Effect.map(QuotingService.createOffer(body, products), answerOffer)
    },
    {
      operationId: "createQuote",
      method: "post",
      path: "/insurance/car/quotes",
      tag: "quotes",
      summary: "Create a quote for named parties",
      description:
        "Creates a quote valid for 30 days (spec §2.8 → §2.9; 7 days with a sandbox key). The parties' roles must fit the product parameters; unknown fields are rejected.",
      scope: "quotes:create",
      requestBody: QuoteRequest.quoteRequestSchemaOf(catalogue).annotate({ identifier: "QuoteRequest" }),
      requestExample: Examples.quoteRequest(),
      responses: [QuoteAnswer],
      responseDescription: "The quote, awaiting activation",
      responseExamples: [{ name: "quote", summary: "A Standard leasing quote", value: EXAMPLE_QUOTE }],
      errorStatuses: [400, 413, 415, 422, 503],
      noStore: true,
      idempotent: true,
      handle: ({ body, partnerId, idempotency, products }) =>
        Effect.map(QuotingService.createQuote(partnerId, body, idempotency, products), answerQuote)
    },
    {
      operationId: "getQuote",
      method: "get",
      path: "/insurance/car/quotes/{quote_id}",
      tag: "quotes",
      summary: "Retrieve a quote",
      description:
        "The quote as created while it awaits activation (spec §2.9), the activated form after (spec §2.10). 404 once it is 30 days old, and for another partner's quote.",
      scope: "quotes:read",
      pathParameters: [quoteIdParameter],
      responses: [QuoteAnswer, ActivatedQuoteAnswer],
      discriminator: "status",
      responseDescription: "The quote",
      responseExamples: [
        { name: "awaiting_activation", summary: "Awaiting activation (spec §2.9)", value: EXAMPLE_QUOTE },
        { name: "activated", summary: "Activated (spec §2.10)", value: Examples.activatedQuoteAnswer() }
      ],
      errorStatuses: [404, 503],
      noStore: true,
      handle: ({ params, partnerId }) =>
        Effect.map(QuotingService.getQuote(partnerId, params["quote_id"] ?? ""), (retrieved) =>
          retrieved.state === "activated" ? answerActivatedQuote(retrieved.quote) : answerQuote(retrieved.quote)
        )
    },
    {
      operationId: "activateQuote",
      method: "post",
      path: "/insurance/car/quotes/{quote_id}/activation",
      tag: "quotes",
      summary: "Activate a quote",
      description:
        "Activates a quote younger than 30 days and answers an empty JSON object (spec §3). With `Prefer: return=representation` (RFC 7240) it answers the quote's state and expiry instead, with `Preference-Applied: return=representation`. Activating an activated quote changes nothing and answers 200 too, with the same body.",
      scope: "quotes:activate",
      pathParameters: [quoteIdParameter],
      responses: [EmptyAnswer, ActivationAnswer],
      responseDescription: "Activated: an empty JSON object, or the quote's state and expiry when asked for them",
      responseExamples: [
        { name: "activated", summary: "Activated (spec §3)", value: {} },
        {
          name: "representation",
          summary: "Activated, with Prefer: return=representation",
          value: Examples.activationAnswer()
        }
      ],
      errorStatuses: [404, 503],
      noStore: true,
      // activation is idempotent by nature: the header is accepted, a repeat changes nothing
      idempotent: true,
      preferReturn: true,
      handle: ({ params, partnerId, headers }) =>
        Effect.map(QuotingService.activateQuote(partnerId, params["quote_id"] ?? ""), (activation) =>
          prefersRepresentation(headers.prefer) ? answerActivation(activation) : answerActivated({})
        )
    },
    {
      operationId: "getHealth",
      method: "get",
      path: "/health",
      tag: "operations",
      summary: "Liveness",
      description: "Answers 200 while the process serves requests, with the version of kasko it runs.",
      servedAtRoot: true,
      responses: [HealthAnswer],
      responseDescription: "The service is alive",
      responseExamples: [{ name: "alive", summary: "Alive", value: { status: "ok", version: "0.1.0" } }],
      noStore: true,
      handle: () =>
        Effect.map(ServiceVersion, (version) =>
          answerHealth(version === undefined ? { status: "ok" } : { status: "ok", version })
        )
    },
    {
      operationId: "getReadiness",
      method: "get",
      path: "/ready",
      tag: "operations",
      summary: "Readiness",
      description:
        "Answers 200 while the quote storage can commit a write (probed at most once a second), 503 while it cannot.",
      servedAtRoot: true,
      responses: [HealthAnswer],
      responseDescription: "The service can serve quotes",
      responseExamples: [{ name: "ready", summary: "Ready", value: { status: "ready" } }],
      errorStatuses: [503],
      noStore: true,
      handle: () =>
        Effect.flatMap(Readiness.Readiness, (readiness) => readiness.check).pipe(
          Effect.as(answerHealth({ status: "ready" }))
        )
    },
    ...documentOperationsOf(catalogue),
    ...WEBHOOK_OPERATIONS
  ]
})

/** The operations of an API selling the shipped products. */
export const OPERATIONS: ReadonlyArray<Operation> = operationsOf(ProductCatalogue.shipped)
