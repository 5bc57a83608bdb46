/**
 * A partner's webhook endpoint: where its quote events go, which of them,
 * and the secret they are signed with (Standard Webhooks: `whsec_` and the
 * key in base64, shown to the partner once). Where an endpoint may point is
 * decided here from the URL alone — HTTPS on port 443, and no special-purpose
 * address literal (loopback, private, link-local and the rest of the IANA
 * registries) — unless the operator allows it for local development; the
 * address a name resolves to is checked again when delivering.
 * @module
 */
import ipaddr from "ipaddr.js"
import { type QuoteEventType, isQuoteEventType, QUOTE_EVENT_TYPES } from "./QuoteEvents.js"

/** A partner's webhook subscription as stored: its endpoint, the event types it takes, its signing secret and state. */
export interface WebhookSubscription {
  readonly subscription_id: string
  readonly partner_id: string
  readonly url: string
  readonly event_types: ReadonlyArray<QuoteEventType>
  readonly secret: string
  /** Epoch milliseconds. */
  readonly created_at: number
  /**
   * When and why delivery to it stopped — its endpoint answered 410 Gone, or failed every attempt for
   * DeliverySchedule.DISABLE_AFTER_FAILING_MILLIS — until its partner enables it again; absent while enabled.
   */
  readonly disabled?: { readonly at: number; readonly reason: string }
}

/** What an operator allows endpoints to be, beyond public HTTPS. */
export interface EndpointPolicy {
  /** `http:` URLs (KASKO_WEBHOOKS_ALLOW_INSECURE): for local development only. */
  readonly allowInsecure: boolean
  /** Loopback, private and link-local addresses: for local development and tests only. */
  readonly allowPrivateAddresses: boolean
  /** Subscriptions one partner may have (KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER; 10 when absent). */
  readonly maxSubscriptionsPerPartner?: number
  /**
   * What lifts the https, port and address rules for local development (`KASKO_WEBHOOKS_ALLOW_INSECURE=true`),
   * named in the refusals it would lift: a developer pointing at a local receiver learns the switch from the 400.
   */
  readonly developmentSwitch?: string
}

/** Subscriptions one partner may have unless the operator says otherwise: each fans every event out once more. */
export const DEFAULT_SUBSCRIPTIONS_PER_PARTNER = 10

/** The endpoint policy of a production service: HTTPS only, and no private, loopback or link-local address. */
export const STRICT_ENDPOINT_POLICY: EndpointPolicy = { allowInsecure: false, allowPrivateAddresses: false }

const MAX_URL_LENGTH = 2048

/**
 * Whether an address literal is one a webhook must not reach: any address the IANA special-purpose address
 * registries (IPv4 and IPv6) set apart, as ipaddr.js classes them — unspecified, loopback, private, shared
 * (100.64.0.0/10), link-local (cloud metadata lives there), multicast, broadcast, reserved and documentation
 * ranges, 192.0.0.0/24, benchmarking (198.18.0.0/15 and 2001:2::/48), unique-local and site-local IPv6,
 * NAT64 (64:ff9b::/96, 64:ff9b:1::/48: private IPv4 on a NAT64 network), 6to4, Teredo, and the IPv4-mapped
 * and -compatible forms — and any IPv6 address outside global unicast (2000::/3). A name is not an address:
 * what it resolves to is checked when delivering.
 */
export const isPrivateAddress = (address: string): boolean => {
  const host = address.replace(/^\[|\]$/g, "").toLowerCase()
  if (!ipaddr.isValid(host)) return false
  const parsed = ipaddr.parse(host)
  if (parsed.range() !== "unicast") return true
  return parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST)
}

const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3")

const LOCAL_NAMES = /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/

/**
 * A URL's host as every check reads it: the URL parser has lower-cased it and turned an international name into
 * its ASCII (IDNA) form; the trailing dots of a fully qualified name (`localhost.`) go too, so that the root's
 * dot cannot hide a name from the checks.
 */
export const normalisedHost = (hostname: string): string => hostname.toLowerCase().replace(/\.+$/, "")

/** Why an endpoint URL is refused under a policy, or undefined when it is allowed. */
export const endpointRefusal = (url: string, policy: EndpointPolicy): string | undefined => {
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "must be an absolute URL"
  }
  const liftedBy = (refusal: string) =>
    policy.developmentSwitch === undefined
      ? refusal
      : `${refusal} (for local development only, the service's ${policy.developmentSwitch} allows it)`
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && policy.allowInsecure))
    return policy.allowInsecure
      ? "must be an http or https URL"
      : parsed.protocol === "http:"
        ? liftedBy("must be an https URL")
        : "must be an https URL"
  if (parsed.username !== "" || parsed.password !== "") return "must not carry credentials"
  if (parsed.hash !== "") return "must not have a fragment"
  const host = normalisedHost(parsed.hostname)
  if (!policy.allowPrivateAddresses && (host === "" || isPrivateAddress(host) || LOCAL_NAMES.test(host)))
    return liftedBy("must not point at a loopback, private or other special-purpose address")
  // another port reaches another service on the host (a Redis on 6379, say); the URL parser drops :443 itself
  if (parsed.port !== "" && !policy.allowInsecure) return liftedBy("must use the https port, 443")
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
