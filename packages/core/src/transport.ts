/**
 * `@kasko/core/transport`: what a transport adapter (HTTP, a message queue)
 * needs beyond the main entry — the wire schemas of requests and answers
 * (for encoding and for documents such as OpenAPI), and the field decoders
 * a transport's own resources reuse; for the webhook transport, where an
 * endpoint may point and when a failed delivery is retried.
 * @module
 */
export * as CalendarDate from "./input/CalendarDate.js"
export * as DeliverySchedule from "./events/DeliverySchedule.js"
export * as WebhookEndpoints from "./events/WebhookEndpoints.js"
export * as Decoding from "./input/Decoding.js"
export * as Fields from "./input/Fields.js"
export * as Offer from "./quote/Offer.js"
export * as ProductCatalogue from "./product/ProductCatalogue.js"
export * as Quote from "./quote/Quote.js"
export * as QuoteRequest from "./quote/QuoteRequest.js"
// the variants' names, which the documents' paths take (/products/{product_name}/variants/{variant}/ipid)
export { VARIANTS } from "./product/Variant.js"
