export * as Authentication from "./Authentication.js"
export * as SigningKey from "./SigningKey.js"
export * as SubscriptionKeys from "./SubscriptionKeys.js"
export * as Tokens from "./Tokens.js"
