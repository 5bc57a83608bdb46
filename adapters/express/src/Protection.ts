/**
 * What a service on the internet needs in front of its routes: security
 * headers for a JSON API (helmet), CORS only for the origins configured, the
 * client's address behind trusted proxies, and Host required (and Host and
 * credentials each sent once). The rate limits
 * themselves are counted in each request's program (RateLimiter port).
 */
import cors from "cors"
import type { RequestHandler } from "express"
import type { IncomingMessage } from "node:http"
import { ipKeyGenerator } from "express-rate-limit"
import helmet from "helmet"
import proxyaddr from "proxy-addr"
import { constraintViolation, type ProblemAnswer, sendProblem } from "./Problem.js"

/** How the API protects itself: its limits per subscription key and per client address, CORS, the proxies it trusts. */
export interface ProtectionOptions {
  /** Requests one subscription key may make per minute, counted once the caller is authenticated. */
  readonly requestsPerMinute: number
  /**
   * Requests one sandbox key may make per minute (a partner's test suite in a loop must not take production's
   * capacity); the production figure when absent.
   */
  readonly sandboxRequestsPerMinute?: number
  /**
   * How long a sandbox key past its limit waits for its 429 (500 ms by default; 0: none): a partner's test suite
   * looping past its limit then asks a few times a second, not thousands, and its refusals do not take production's
   * capacity. The wait holds a connection and a timer, no CPU.
   */
  readonly sandboxRefusalPauseMillis?: number
  /**
   * Documents one subscription key may have printed per minute (a quote's document: ~7 ms of the event loop
   * each), counted besides its requests; 60 by default.
   */
  readonly documentsPerMinute?: number
  /** Requests refused with 401 one client address may make per minute before it is refused outright. */
  readonly failedAuthenticationsPerMinute: number
  /** Origins browsers may call the API from; none (the default) leaves CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
  /**
   * The proxies in front whose X-Forwarded-For names the client (Express's
   * `trust proxy`): a number of hops, or addresses and subnets; "" trusts none.
   */
  readonly trustProxy?: string
}

/** Express's `trust proxy` setting for a ProtectionOptions value. */
export const trustProxySetting = (trustProxy: string | undefined): boolean | number | string =>
  trustProxy === undefined || trustProxy === "" ? false : /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy

/**
 * Whether a peer address is one of the proxies `trustProxy` names, as Express (proxy-addr) decides it: none
 * when unset, every peer for a number of hops (the service cannot tell a proxy from a client then).
 */
export const isTrustedProxy = (trustProxy: string | undefined): ((address: string) => boolean) => {
  const setting = trustProxySetting(trustProxy)
  if (setting === false) return () => false
  if (typeof setting === "number") return () => true
  const trusted = proxyaddr.compile(String(setting).split(/\s*,\s*/))
  return (address) => trusted(address, 0)
}

const SUBSCRIPTION_KEY = "ocp-apim-subscription-key"

/**
 * The security headers helmet sets for a JSON API with one HTML page (/docs,
 * which loads only same-origin scripts). They depend on no request, so helmet
 * runs once, at start-up, and every answer carries what it set.
 */
export const securityHeaderList = (): ReadonlyArray<readonly [string, string]> => {
  const headers: Array<[string, string]> = []
  const recorder = {
    setHeader: (name: string, value: string | number | ReadonlyArray<string>) =>
      void headers.push([name, String(value)]),
    removeHeader: () => undefined,
    getHeader: () => undefined
  }
  helmet()({} as never, recorder as never, () => undefined)
  return headers
}

/**
 * A document's (a PDF's) Content-Security-Policy: the API's, but a browser shows a PDF in its viewer, a plugin,
 * which `object-src 'none'` would block.
 */
export const DOCUMENT_CONTENT_SECURITY_POLICY = (
  securityHeaderList().find(([name]) => name.toLowerCase() === "content-security-policy")?.[1] ?? ""
).replace("object-src 'none'", "object-src 'self'")

/** Middleware setting the security headers on every answer it passes. */
export const securityHeaders =
  (headers: ReadonlyArray<readonly [string, string]> = securityHeaderList()): RequestHandler =>
  (_request, response, next) => {
    for (const [name, value] of headers) response.setHeader(name, value)
    next()
  }

/** CORS for the configured origins, or nothing. */
export const corsFor = (origins: ReadonlyArray<string>): Array<RequestHandler> =>
  origins.length === 0
    ? []
    : [
        cors({
          origin: [...origins],
          // Mcp-Protocol-Version: what an MCP client sends the MCP endpoint with every request after the first
          allowedHeaders: [
            "Authorization",
            SUBSCRIPTION_KEY,
            "Content-Type",
            "Idempotency-Key",
            "X-Request-Id",
            "Mcp-Protocol-Version"
          ],
          exposedHeaders: ["X-Request-Id", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]
        })
      ]

/** What failed attempts from one client count under: its address (IPv6 by its /56 subnet, as one client holds many addresses). */
export const clientAddressKey = (address: string): string => (address.includes(":") ? ipKeyGenerator(address) : address)

const MISSING_HOST: ProblemAnswer = constraintViolation([
  { field: "Host", message: "is required in HTTP/1.1 (RFC 9112)" }
])

// headers a request may carry once: Node keeps the first of each and drops the rest, so a second would pass
// unseen — RFC 9112 §3.2 asks a 400 for two Hosts, and two credentials are as ambiguous
const SINGLE_HEADERS = ["host", "authorization", "ocp-apim-subscription-key"] as const

const repeated = (header: string): ProblemAnswer =>
  constraintViolation([{ field: header, message: "must be sent once" }])

/** How many times the request carries a header, counted in its raw headers (name, value, name, value, …). */
const timesSent = (request: IncomingMessage, header: string): number => {
  let count = 0
  for (let index = 0; index < request.rawHeaders.length; index += 2)
    if (request.rawHeaders[index]!.toLowerCase() === header) count++
  return count
}

/**
 * The request's headers, refused when they are ambiguous: HTTP/1.1 without Host (RFC 9112 §3.2; Node would
 * answer a bare 400 of its own), or a Host, Authorization or subscription key sent twice.
 */
export const headersRefusal = (request: IncomingMessage): ProblemAnswer | undefined => {
  if (request.httpVersion === "1.1" && request.headers.host === undefined) return MISSING_HOST
  for (const header of SINGLE_HEADERS)
    if (request.headers[header] !== undefined && timesSent(request, header) > 1)
      return repeated(
        header === "ocp-apim-subscription-key" ? header : header.replace(/^./, (first) => first.toUpperCase())
      )
  return undefined
}

/** Middleware answering `headersRefusal`'s problem: every route asks it, before its own work. */
export const requireUnambiguousHeaders: RequestHandler = (request, response, next) => {
  const refusal = headersRefusal(request)
  if (refusal !== undefined) return void sendProblem(response, refusal)
  next()
}
