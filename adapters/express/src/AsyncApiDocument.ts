/**
 * The AsyncAPI 3 document of kasko's quote events, served at
 * `/asyncapi.json`: what a partner's webhook endpoint receives — one message
 * per event type, its Standard Webhooks headers, and its JSON body (the event
 * and the quote as retrieving it would answer then), the body's schema made
 * from the same Effect schemas the API answers with.
 */
import { QuoteEvents } from "@kasko/core"
import { ProductCatalogue, Quote } from "@kasko/core/transport"
import { Schema } from "effect"
import {
  isObject,
  isPlainInteger,
  type JsonObject,
  jsonSchemaOf,
  layout,
  subschemasRewritten,
  tidy
} from "./SchemaLayout.js"

const EventType = Schema.Literals(QuoteEvents.QUOTE_EVENT_TYPES)

/** The body of a quote's event, for a catalogue's products. */
const quoteEventBodyOf = (catalogue: ProductCatalogue.Catalogue) => {
  const quotes = Quote.quoteSchemasOf(catalogue)
  return Schema.Struct({
    id: Schema.String.annotate({ description: "The event's id, also sent as webhook-id: deduplicate on it" }),
    type: EventType,
    occurred_at: Schema.String.annotate({ description: "When it happened: ISO 8601, UTC" }),
    partner_id: Schema.String,
    quote_id: Schema.String,
    data: Schema.Union([
      Schema.Struct({ state: Schema.Literal("await_activation"), quote: quotes.Quote }),
      Schema.Struct({ state: Schema.Literal("activated"), quote: quotes.ActivatedQuote })
    ]).annotate({ description: "The quote as GET /insurance/car/quotes/{quote_id} answered at that moment" })
  }).annotate({ identifier: "QuoteEvent" })
}

const SUMMARIES: Record<QuoteEvents.QuoteEventType, string> = {
  "quote.created": "A quote was created (POST /insurance/car/quotes)",
  "quote.activated": "A quote was activated (POST /insurance/car/quotes/{quote_id}/activation)",
  "quote.expired": "A quote reached its 30 days (a sandbox key's quote its 7) without being activated"
}

const messageName = (type: QuoteEvents.QuoteEventType) =>
  type.replace(/\.(\w)/, (_match, letter: string) => letter.toUpperCase())

// an integer is a schema of its own, `Int`, as the document has always named it (Effect 3 named it so)
const INT = { type: "integer", description: "an integer", title: "int" }

/** The body schema's definitions (the body's own among them), as `components.schemas`. */
const payloadSchemas = (catalogue: ProductCatalogue.Catalogue): JsonObject => {
  const generated = jsonSchemaOf(Schema.toType(quoteEventBodyOf(catalogue)))
  // the body is itself a definition (it has an identifier): the root only points at it
  if (generated.schema["$ref"] !== "#/$defs/QuoteEvent")
    throw new Error("the event body schema must be the QuoteEvent definition")
  let integers = false
  const rewrite = (node: unknown): unknown => {
    if (!isObject(node)) return node
    if (isPlainInteger(node)) {
      integers = true
      return { $ref: "#/components/schemas/Int" }
    }
    const result: JsonObject = {}
    for (const [key, value] of Object.entries(tidy(node))) {
      if (key === "$ref" && typeof value === "string") result[key] = value.replace("#/$defs/", "#/components/schemas/")
      else result[key] = (subschemasRewritten(key, value, rewrite) ?? { rewritten: value }).rewritten
    }
    return layout(result, true)
  }
  const schemas = Object.fromEntries(
    Object.entries(generated.definitions).map(([name, schema]) => [name, rewrite(schema)])
  )
  return integers ? { ...schemas, Int: INT } : schemas
}

/** The AsyncAPI document of the webhooks' events, for a catalogue's products (the shipped ones unless given). */
export const asyncApiDocument = (
  version: string,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): JsonObject => {
  const schemas = payloadSchemas(catalogue)
  const messages = Object.fromEntries(
    QuoteEvents.QUOTE_EVENT_TYPES.map((type) => [
      messageName(type),
      {
        name: type,
        title: type,
        summary: SUMMARIES[type],
        contentType: "application/json",
        headers: { $ref: "#/components/schemas/StandardWebhooksHeaders" },
        payload: { $ref: "#/components/schemas/QuoteEvent" }
      }
    ])
  )
  const messageReferences = Object.fromEntries(
    Object.keys(messages).map((name) => [name, { $ref: `#/components/messages/${name}` }])
  )
  return {
    asyncapi: "3.0.0",
    info: {
      title: "kasko quote events",
      version,
      description:
        "What a partner's webhook endpoint receives. Each event is POSTed as JSON, signed per Standard Webhooks " +
        "(https://www.standardwebhooks.com): verify webhook-signature with the secret answered when the endpoint was " +
        "subscribed (POST /webhooks/subscriptions), and deduplicate on webhook-id — delivery is at least once, in order " +
        "per quote. Answer 2xx within 5 seconds; anything else is retried with backoff for 24 hours."
    },
    defaultContentType: "application/json",
    channels: {
      partnerEndpoint: {
        address: null,
        title: "The partner's webhook endpoint",
        description: "The https URL the partner subscribed, for the event types it chose.",
        messages: messageReferences
      }
    },
    operations: {
      deliverQuoteEvent: {
        action: "send",
        title: "Deliver a quote event",
        channel: { $ref: "#/channels/partnerEndpoint" },
        messages: Object.keys(messages).map((name) => ({ $ref: `#/channels/partnerEndpoint/messages/${name}` })),
        bindings: { http: { method: "POST", bindingVersion: "0.3.0" } }
      }
    },
    components: {
      messages,
      schemas: {
        ...schemas,
        StandardWebhooksHeaders: {
          type: "object",
          required: ["webhook-id", "webhook-timestamp", "webhook-signature"],
          properties: {
            "webhook-id": { type: "string", description: "The event's id: the same on every retry" },
            "webhook-timestamp": {
              type: "string",
              description: "Seconds since the epoch when this attempt was signed"
            },
            "webhook-signature": {
              type: "string",
              description: "v1, and the base64 HMAC-SHA256 of `id.timestamp.body` under the subscription's secret"
            }
          }
        }
      }
    }
  }
}
