export * as Authentication from "./Authentication.js"
export * as CalendarDate from "./CalendarDate.js"
export * as Coverage from "./Coverage.js"
export * as Decoding from "./Decoding.js"
export * as Errors from "./Errors.js"
export * as Examples from "./Examples.js"
export * as Fields from "./Fields.js"
export * as IdentityNumbers from "./IdentityNumbers.js"
export * as IdGenerator from "./IdGenerator.js"
export * as Kasko from "./Kasko.js"
export * as Money from "./Money.js"
export * as Offer from "./Offer.js"
export * as Parameters from "./Parameters.js"
export * as Parties from "./Parties.js"
export * as Partner from "./Partner.js"
export * as PartnerAdministration from "./PartnerAdministration.js"
export * as PartnerStore from "./PartnerStore.js"
export * as Pricing from "./Pricing.js"
export * as PricingPlan from "./PricingPlan.js"
export * as ProductCatalogue from "./ProductCatalogue.js"
export * as ProductSelection from "./ProductSelection.js"
export * as Quote from "./Quote.js"
export * as QuoteLifecycle from "./QuoteLifecycle.js"
export * as QuoteRequest from "./QuoteRequest.js"
export * as QuoteStore from "./QuoteStore.js"
export * as QuotingService from "./QuotingService.js"
export * as RatingWorksheet from "./RatingWorksheet.js"
export * as RateLimiter from "./RateLimiter.js"
export * as Readiness from "./Readiness.js"
export * as Tariff from "./Tariff.js"
export * as TariffCompiler from "./TariffCompiler.js"
export * as TariffBook from "./TariffBook.js"
export * as Variant from "./Variant.js"
export * as VehicleCodes from "./VehicleCodes.js"
export {
  AuthenticationRefused,
  ConstraintViolation,
  IdentityProviderUnavailable,
  IdempotencyKeyReused,
  ProductNotFound,
  QuoteNotFound,
  StorageUnavailable,
  TariffNotInForce,
  type CoreError,
  type Violation
} from "./Errors.js"
