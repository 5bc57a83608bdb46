/**
 * A partner's webhook endpoint: where its quote events go, which of them,
 * and the secret they are signed with (Standard Webhooks: `whsec_` and the
 * key in base64, shown to the partner once). Where an endpoint may point is
 * decided here from the URL alone — HTTPS, and no loopback, private or
 * link-local address literal — unless the operator allows it for local
 * development; the address a name resolves to is checked again when
 * delivering.
 */
import { type QuoteEventType, isQuoteEventType, QUOTE_EVENT_TYPES } from "./QuoteEvent.js"

export interface WebhookSubscription {
  readonly subscription_id: string
  readonly partner_id: string
  readonly url: string
  readonly event_types: ReadonlyArray<QuoteEventType>
  readonly secret: string
  /** Epoch milliseconds. */
  readonly created_at: number
}

/** What an operator allows endpoints to be, beyond public HTTPS. */
export interface EndpointPolicy {
  /** `http:` URLs (KASKO_WEBHOOKS_ALLOW_INSECURE): for local development only. */
  readonly allowInsecure: boolean
  /** Loopback, private and link-local addresses: for local development and tests only. */
  readonly allowPrivateAddresses: boolean
  /** Subscriptions one partner may have (KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER; 10 when absent). */
  readonly maxSubscriptionsPerPartner?: number
}

/** Subscriptions one partner may have unless the operator says otherwise: each fans every event out once more. */
export const DEFAULT_SUBSCRIPTIONS_PER_PARTNER = 10

export const STRICT_ENDPOINT_POLICY: EndpointPolicy = { allowInsecure: false, allowPrivateAddresses: false }

const MAX_URL_LENGTH = 2048

const ipv4Octets = (host: string): ReadonlyArray<number> | undefined => {
  const parts = host.split(".")
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined
  const octets = parts.map(Number)
  return octets.every((octet) => octet <= 255) ? octets : undefined
}

/**
 * Whether an address is one a webhook must not reach from the service's
 * network: unspecified, loopback, private (RFC 1918, unique local), link-local
 * (cloud metadata lives there), carrier-grade NAT, or an IPv4 address mapped
 * into IPv6 that is one of those.
 */
export const isPrivateAddress = (address: string): boolean => {
  const host = address.replace(/^\[|\]$/g, "").toLowerCase()
  const v4 = ipv4Octets(host)
  if (v4 !== undefined) {
    const [a, b] = v4 as [number, number, number, number]
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    )
  }
  if (!host.includes(":")) return false
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)
  if (mapped !== null) return isPrivateAddress(mapped[1]!)
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(host)) return true
  return host === "::" || host === "::1" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || /^ff/.test(host)
}

const LOCAL_NAMES = /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/

/** Why an endpoint URL is refused under a policy, or undefined when it is allowed. */
export const endpointRefusal = (url: string, policy: EndpointPolicy): string | undefined => {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "must be an absolute URL"
  }
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && policy.allowInsecure))
    return policy.allowInsecure ? "must be an http or https URL" : "must be an https URL"
  if (parsed.username !== "" || parsed.password !== "") return "must not carry credentials"
  if (parsed.hash !== "") return "must not have a fragment"
  const host = parsed.hostname.toLowerCase()
  if (!policy.allowPrivateAddresses && (isPrivateAddress(host) || LOCAL_NAMES.test(host)))
    return "must not point at a loopback, private or link-local address"
  return undefined
}

/** The event types a subscription asks for: a non-empty list of known ones, each once. */
export const eventTypesRefusal = (value: unknown): string | undefined => {
  if (!Array.isArray(value) || value.length === 0) return `must be a non-empty list of ${QUOTE_EVENT_TYPES.join(", ")}`
  const unknown = value.find((type) => !isQuoteEventType(type))
  if (unknown !== undefined) return `has ${JSON.stringify(unknown)}, not one of ${QUOTE_EVENT_TYPES.join(", ")}`
  if (new Set(value).size !== value.length) return "names an event type twice"
  return undefined
}

/** Whether a subscription wants an event of this type. */
export const wants = (subscription: Pick<WebhookSubscription, "event_types">, type: QuoteEventType): boolean =>
  subscription.event_types.includes(type)
