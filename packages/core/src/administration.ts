/**
 * `@kasko/core/administration`: managing partners and their subscription
 * keys, as the operator's command line does it.
 */
export * as Partner from "./partner/Partner.js"
export * as PartnerAdministration from "./partner/PartnerAdministration.js"
