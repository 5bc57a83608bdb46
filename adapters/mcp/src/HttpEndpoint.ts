/**
 * The MCP endpoint over streamable HTTP (`POST /mcp` on the service), for the composition root to hand to the
 * express adapter's app: that stack admits the caller as it admits the REST operations' — a bearer token and a
 * subscription key carrying any of the tools' scopes, checked before the body is read; the key's rate limit; the
 * body read within its limit — and this answers. Before admission, its screen refuses (403) a Host that is not one
 * of the service's names and an Origin that is neither the service's own nor an allowed one: a web page cannot
 * reach it through DNS rebinding.
 *
 * Stateless: each request gets a fresh SDK transport and server, no session, and JSON answers rather than SSE
 * streams — every tool answers at once and sends nothing on its own, so a session would hold nothing, and any
 * instance behind a load balancer answers any request. Each tool call is authorized for its own scope through the
 * Authentication port, with the request's credentials.
 */
import { Authentication, type ProductCatalogue, TariffBook } from "@kasko/core"
import type { Sandbox } from "@kasko/core/administration"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect } from "effect"
import type { IncomingHttpHeaders } from "node:http"
import { catalogueShown } from "./ProductsShown.js"
import type { Caller, CallSettings } from "./ToolCalls.js"
import { serverFor, type Run } from "./ToolServer.js"
import type { ToolServices } from "./Tools.js"

/**
 * The scopes of the tools: credentials carrying any of them are admitted to the endpoint, tried in this order —
 * pricing's first, as most agents' calls are offers, and a scope a token lacks costs its refusal to find out.
 */
export const MCP_SCOPES = [
  "offers:create",
  "products:read",
  "quotes:create",
  "quotes:read",
  "quotes:activate"
] as const satisfies ReadonlyArray<Authentication.Scope>

/** The services the endpoint's calls use. */
export type McpEndpointServices = ToolServices | Authentication.Authentication

/** How the MCP endpoint is served: the names and origins it answers, and what hears of its calls. */
export interface McpEndpointOptions extends CallSettings {
  /**
   * The host names the service is reached by (`localhost`, `api.insurer.example`; any port): a request whose Host
   * names another is refused.
   */
  readonly hosts: ReadonlyArray<string>
  /** Origins a browser may call the endpoint from besides the service's own (the service's CORS origins). */
  readonly origins?: ReadonlyArray<string>
  /** The version the server names itself with; kasko's. */
  readonly version?: string
}

/** An admitted request, as the express adapter hands it over. */
export interface McpCall {
  readonly body: unknown
  readonly headers: IncomingHttpHeaders
  readonly partnerId: string
  /** The products the partner may sell, as admission found them (undefined: every one): the only ones listed. */
  readonly products: ReadonlyArray<string> | undefined
  /**
   * Where the caller's key works: `production`, or the partner's `sandbox` (then `partnerId` is the sandbox's, and
   * the tools' answers carry `"environment": "sandbox"`).
   */
  readonly environment: Sandbox.Environment
  readonly requestId: string
}

/** The answer, as the express adapter writes it. */
export interface McpHttpAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The endpoint, shaped as the express adapter's `ProtocolEndpoint`. */
export interface McpEndpoint {
  readonly name: "mcp"
  readonly path: "/mcp"
  readonly scopes: typeof MCP_SCOPES
  readonly screen: (headers: IncomingHttpHeaders) => string | undefined
  readonly answer: (call: McpCall) => Effect.Effect<McpHttpAnswer, never, McpEndpointServices>
}

// the headers the SDK's transport reads; the credentials stay out of it
const TRANSPORT_HEADERS = ["accept", "content-type", "mcp-protocol-version", "mcp-session-id", "last-event-id"]

const hostnameOf = (authority: string): string | undefined => {
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

const originHostnameOf = (origin: string): string | undefined => {
  try {
    return new URL(origin).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/** Why a request is refused before admission (a foreign Host or Origin), or undefined. */
const screenOf = (hosts: ReadonlyArray<string>, origins: ReadonlyArray<string>) => {
  const allowedHosts = new Set(hosts.map((host) => hostnameOf(host) ?? host.toLowerCase()))
  const allowedOrigins = new Set(origins.map((origin) => origin.replace(/\/+$/, "")))
  const names = [...allowedHosts].join(", ")
  return (headers: IncomingHttpHeaders): string | undefined => {
    const host = headers.host === undefined ? undefined : hostnameOf(headers.host)
    if (host === undefined || !allowedHosts.has(host))
      return `The MCP endpoint answers requests to ${names} only, not to Host ${JSON.stringify(headers.host ?? "")}: a page cannot reach it by DNS rebinding.`
    const origin = headers.origin
    if (origin === undefined || allowedOrigins.has(origin)) return undefined
    const originHost = originHostnameOf(origin)
    if (originHost !== undefined && allowedHosts.has(originHost)) return undefined
    return `The MCP endpoint answers pages of the service's own origin and of KASKO_CORS_ORIGINS only, not Origin ${JSON.stringify(origin)}.`
  }
}

const credentialsOf = (headers: IncomingHttpHeaders) => ({
  authorization: headers.authorization,
  subscriptionKey: headers["ocp-apim-subscription-key"] as string | undefined
})

/** The request's caller: each call authorized for its tool's scope with the request's credentials. */
const httpCaller = (call: McpCall): Caller<Authentication.Authentication> => {
  const credentials = credentialsOf(call.headers)
  return {
    transport: "http",
    environment: call.environment,
    requestId: call.requestId,
    authorize: (scope) =>
      Authentication.Authentication.use((authentication) => authentication.authenticate(credentials, scope))
  }
}

/** The request as the SDK's transport reads it: its MCP headers, its body already read. */
const requestOf = (headers: IncomingHttpHeaders): Request => {
  const forwarded = new Headers()
  for (const name of TRANSPORT_HEADERS) {
    const value = headers[name]
    if (typeof value === "string") forwarded.set(name, value)
  }
  return new Request("http://localhost/mcp", { method: "POST", headers: forwarded })
}

/** One request through a fresh server and the SDK's stateless transport, answering JSON. */
const answered = async (
  catalogue: ProductCatalogue.Catalogue,
  call: McpCall,
  run: Run<Authentication.Authentication>,
  options: McpEndpointOptions
): Promise<McpHttpAnswer> => {
  const server = serverFor(catalogueShown(catalogue, call.products), httpCaller(call), run, {
    ...options,
    version: options.version ?? "0.0.0"
  })
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
  await server.connect(transport)
  try {
    const response = await transport.handleRequest(requestOf(call.headers), { parsedBody: call.body })
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: await response.text()
    }
  } finally {
    await server.close()
  }
}

/**
 * A JSON-RPC batch, refused: one request is counted once against the key's rate limit, and a batch would make a
 * hundred calls of it (the SDK's transport takes up to 100). MCP removed batches in its 2025-06-18 revision, and no
 * client of this SDK sends one.
 */
const BATCH_REFUSED: McpHttpAnswer = {
  status: 400,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32600, message: "Invalid Request: JSON-RPC batches are not served; send one message a request" },
    id: null
  })
}

/**
 * The MCP endpoint on the runtime's services: its tools and resources are those of the runtime's TariffBook's
 * catalogue — of the products the caller's partner may sell, when it may not sell every one; each call runs in the
 * request's context, interrupted with it (past its time budget).
 */
export const mcpEndpoint = (options: McpEndpointOptions): McpEndpoint => ({
  name: "mcp",
  path: "/mcp",
  scopes: MCP_SCOPES,
  screen: screenOf(options.hosts, options.origins ?? []),
  answer: (call) =>
    Effect.gen(function* () {
      if (Array.isArray(call.body)) return BATCH_REFUSED
      const book = yield* TariffBook.TariffBook
      const context = yield* Effect.context<McpEndpointServices>()
      return yield* Effect.promise((signal) =>
        answered(book.catalogue, call, (effect) => Effect.runPromiseWith(context)(effect, { signal }), options)
      )
    })
})
