/**
 * The sandbox (issue 47): where a partner's developers try the API with a sandbox key. Its quotes belong to the
 * partner's sandbox, an owner of its own (`sandbox:<partner_id>`, which no partner id can be), so everything kept
 * per owner — quotes, idempotency keys, webhook subscriptions and their events — is apart from production's by
 * the same rule that keeps partners apart. Its numbers start with TEST-, its answers and events say
 * `"environment": "sandbox"`, its activation is never a policy, and its quotes are valid 7 days (their `expires_at`
 * says so, `QuoteLifecycle.expiresAt`) and purged then.
 * @module
 */

/** Where a subscription key works: `production`, or only in the partner's `sandbox`. */
export type Environment = "production" | "sandbox"

const SANDBOX_OWNER = "sandbox:"

/** The owner a partner's sandbox quotes and webhook subscriptions are kept under. */
export const sandboxOwnerOf = (partnerId: string): string => `${SANDBOX_OWNER}${partnerId}`

/** Whether quotes kept under `ownerId` are a sandbox's. */
export const isSandboxOwner = (ownerId: string): boolean => ownerId.startsWith(SANDBOX_OWNER)

/** The partner an owner (a partner, or a partner's sandbox) belongs to. */
export const partnerOfOwner = (ownerId: string): string =>
  isSandboxOwner(ownerId) ? ownerId.slice(SANDBOX_OWNER.length) : ownerId

/** What starts a sandbox quote's quote and policy numbers, so that they cannot be taken for real ones. */
export const SANDBOX_NUMBER_PREFIX = "TEST-"

/**
 * How long a sandbox quote is valid (its `expires_at`, `QuoteLifecycle.expiresAt`) and kept, activated or not: 7 days
 * from its creation.
 */
export const SANDBOX_RETENTION_MILLIS = 7 * 24 * 60 * 60 * 1000
