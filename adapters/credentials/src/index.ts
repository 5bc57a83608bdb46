/**
 * `@kasko/credentials`: the Authentication port's adapter — bearer tokens (an embedded ES256 key pair, or an
 * identity provider's JWKS) and subscription keys (a public prefix and a SHA-256, looked up in the PartnerStore).
 * @module
 */
export * as Authentication from "./Authentication.js"
export * as SigningKey from "./SigningKey.js"
export * as SubscriptionKeys from "./SubscriptionKeys.js"
export * as Tokens from "./Tokens.js"
