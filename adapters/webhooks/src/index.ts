export * as WebhookDispatcher from "./WebhookDispatcher.js"
export * as WebhookSender from "./WebhookSender.js"
export { AddressRefused } from "./SafeLookup.js"
export { makeThreadSender, type ThreadSender } from "./ThreadSender.js"
