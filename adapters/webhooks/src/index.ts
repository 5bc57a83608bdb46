/**
 * `@kasko/webhooks`: delivers the quote events of the outbox to partners' webhook endpoints — signed per
 * Standard Webhooks, leased to one instance at a time, retried with backoff — from a sending thread of its own.
 * @module
 */
export * as WebhookDispatcher from "./WebhookDispatcher.js"
export * as WebhookSender from "./WebhookSender.js"
export { AddressRefused } from "./SafeLookup.js"
export { makeThreadSender, type ThreadSender } from "./ThreadSender.js"
export { makeWakeups, type Wakeups } from "./Wakeups.js"
