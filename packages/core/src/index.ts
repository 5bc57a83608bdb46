/**
 * `@kasko/core`: what an embedder uses — the promise facade (`Kasko`), the
 * same use cases as Effect programs (`QuotingService`), example requests,
 * the request and answer types, the errors, and the ports with their Tags.
 * Adapters and tools import their extra needs from the named subpaths
 * (`/transport`, `/storage`, `/actuarial`, `/administration`).
 * @module
 */
export * as Kasko from "./Kasko.js"
export * as QuotingService from "./QuotingService.js"
export * as Examples from "./Examples.js"
// The languages kasko writes in (Danish, English), and which one a request asks for.
export * as Language from "./Language.js"

export {
  AuthenticationRefused,
  ConstraintViolation,
  DeliveryNotFound,
  DeliveryNotReplayable,
  IdentityProviderUnavailable,
  IdempotencyKeyReused,
  ProductNotFound,
  QuoteNotFound,
  StorageUnavailable,
  SubscriptionLimitReached,
  SubscriptionNotFound,
  TariffNotInForce,
  Violation,
  type CoreError
} from "./Errors.js"

// The ports: each a Context.Service an adapter (or the core itself) provides.
export * as Authentication from "./ports/Authentication.js"
export * as DocumentLinks from "./ports/DocumentLinks.js"
export * as DocumentRenderer from "./ports/DocumentRenderer.js"
export * as EventOutbox from "./ports/EventOutbox.js"
export * as IdGenerator from "./ports/IdGenerator.js"
export * as PartnerStore from "./ports/PartnerStore.js"
export * as QuoteStore from "./ports/QuoteStore.js"
export * as RateLimiter from "./ports/RateLimiter.js"
export * as Readiness from "./ports/Readiness.js"
export * as TariffBook from "./ports/TariffBook.js"
// The products an engine sells: the shipped ones, or a catalogue of documents an insurer adds (TariffBook.ofCatalogue).
export * as ProductCatalogue from "./product/ProductCatalogue.js"
export * as WebhookSubscriptions from "./ports/WebhookSubscriptions.js"

// The formats of quote ids, policy and quote numbers (UUID v7, Luhn check digits).
export * as QuoteIdentifiers from "./quote/QuoteIdentifiers.js"
// What partners learn of their quotes: the events the stores write with each change.
export * as QuoteEvents from "./events/QuoteEvents.js"

// What requests and answers look like (their schemas are in `@kasko/core/transport`).
export type { OfferRequest, OfferRequestInput, PriceOffer } from "./quote/Offer.js"
export type { ActivatedQuote, Quote, QuoteActivation, QuoteContent, QuotePrice } from "./quote/Quote.js"
export type { QuoteRequest, QuoteRequestInput } from "./quote/QuoteRequest.js"
export type { ProductDefinition, ProductName } from "./product/ProductCatalogue.js"
export type { Partner, PartnerStatus, SubscriptionKeyRecord } from "./partner/Partner.js"
