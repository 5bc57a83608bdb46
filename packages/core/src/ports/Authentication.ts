/**
 * The authentication port: who is calling (spec §5). A caller presents an
 * `Authorization: Bearer <token>` header and the partner's
 * `ocp-apim-subscription-key`; the port answers the partner it acts for, or
 * why it may not. Adapters implement it with a Layer (kasko's own: JWT
 * verification with an embedded key pair or an identity provider's key set,
 * subscription keys looked up by prefix and compared by hash).
 * @module
 */
import { Context, type Effect } from "effect"
import type { AuthenticationRefused, IdentityProviderUnavailable, StorageUnavailable } from "../Errors.js"

/** The scopes a token may carry, one per operation of the partner API. */
export const SCOPES = [
  "products:read",
  "offers:create",
  "quotes:create",
  "quotes:read",
  "quotes:activate",
  "webhooks:manage"
] as const
/** One of the scopes a token grants (`offers:create`, `quotes:read` …): each operation of the API takes one. */
export type Scope = (typeof SCOPES)[number]

/** The credentials a request presents: the two headers as sent, absent when not sent. */
interface PresentedCredentials {
  readonly authorization: string | undefined
  readonly subscriptionKey: string | undefined
}

/** The caller an operation acts for. */
export interface Principal {
  readonly partnerId: string
  /** What the caller's requests are counted under for the rate limit: its subscription key's public prefix. */
  readonly rateLimitKey: string
  /** The names of the products the partner may sell; absent, every product. */
  readonly products?: ReadonlyArray<string>
  /**
   * `sandbox` for a sandbox key: then `partnerId` is the partner's sandbox (`Sandbox.sandboxOwnerOf`), and the
   * requests are counted under the sandbox's own rate limit. Absent: production.
   */
  readonly environment?: "sandbox"
}

/**
 * The Authentication port: a request's credentials and the scope it needs → the partner (`Principal`), or
 * `AuthenticationRefused`. `@kasko/credentials` provides it (tokens and subscription keys).
 */
export class Authentication extends Context.Service<
  Authentication,
  {
    /** The partner the credentials belong to, if they are valid, current, and carry the scope. */
    readonly authenticate: (
      credentials: PresentedCredentials,
      scope: Scope
    ) => Effect.Effect<Principal, AuthenticationRefused | IdentityProviderUnavailable | StorageUnavailable>
  }
>()("@kasko/core/Authentication") {}
