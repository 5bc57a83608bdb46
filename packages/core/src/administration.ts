/**
 * `@kasko/core/administration`: managing partners, their subscription keys
 * and their webhook subscriptions, as the operator's command line and the
 * webhook endpoints do it.
 * @module
 */
export * as Partner from "./partner/Partner.js"
export * as PartnerAdministration from "./partner/PartnerAdministration.js"
export * as PartnerProducts from "./partner/PartnerProducts.js"
export * as Sandbox from "./partner/Sandbox.js"
export * as WebhookAdministration from "./events/WebhookAdministration.js"
