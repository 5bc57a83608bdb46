/**
 * The MCP server of one caller, on the SDK's `Server`: it lists the tools and resources of the runtime's catalogue
 * and answers each call with one Effect program, run where the caller's transport runs it (the HTTP request's
 * context, or the stdio session's runtime). The SDK's high-level `McpServer` takes tools' arguments as zod schemas
 * only; kasko's are the core's Effect Schemas, so the tools are registered with the `Server` underneath it, their
 * JSON Schemas generated from the core's and their arguments decoded by the core's decoders.
 */
import type { ProductCatalogue } from "@kasko/core"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Tool as ListedTool
} from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { readResource, resourceOf, resourcesOf, scopeOfResource } from "./Resources.js"
import { type Caller, type CallSettings, callTool } from "./ToolCalls.js"
import { toolErrorOf } from "./ToolErrors.js"
import { sandboxToolsOf, TOOL_NAMES, type Tool, type ToolServices, toolsOf } from "./Tools.js"

/** What the server says of itself to the model when a session starts. */
export const INSTRUCTIONS = [
  "kasko prices and quotes Danish car insurance for a partner — a car dealer or leasing company — and its customers.",
  "get_product tells what a product asks for; price_offer prices a case from its parameters alone, anonymously; explain_price says why the price is what it is, line by line; compare_features lays the features and payment plans side by side.",
  "create_quote makes a quote for named customers (CPR and CVR numbers, with their consent), valid 30 days; get_quote reads it; activate_quote takes the insurance out — only when the customer has accepted.",
  "A tool error says what to correct (each field and the values it allows) or whether to try again. Prices are in Danish kroner."
].join(" ")

/** What a sandbox key's session is told besides: what it makes is a test. */
export const SANDBOX_INSTRUCTIONS =
  'This session uses the partner\'s sandbox key: its quotes are tests — numbered TEST-, never policies, valid 7 days (not 30) and deleted then — apart from production\'s, and every answer says "environment": "sandbox".'

/**
 * The JSON Schema validator of every server: the SDK makes an Ajv of its own for each server unless given one, which
 * cost a request to /mcp ~0.4 ms (a server is made per request); the servers elicit nothing, so they never use it.
 */
const VALIDATOR = new AjvJsonSchemaValidator()

/** MCP's error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002

/** How the server runs a call's program: in the caller's runtime or context, for a promise the SDK awaits. */
export type Run<R> = <A>(effect: Effect.Effect<A, never, ToolServices | R>) => Promise<A>

export interface ServerSettings extends CallSettings {
  /** The version the server names itself with (kasko's). */
  readonly version: string
}

const listed = (tool: Tool): ListedTool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema as ListedTool["inputSchema"],
  outputSchema: tool.outputSchema as NonNullable<ListedTool["outputSchema"]>,
  annotations: { title: tool.title, ...tool.annotations }
})

/** A resource read for the caller: its content, or the JSON-RPC error it answers (unknown, or not the caller's to read). */
const resourceProgram = <R>(
  uri: string,
  caller: Caller<R>,
  catalogue: ProductCatalogue.Catalogue
): Effect.Effect<ReadResourceResult | McpError, never, ToolServices | R> => {
  const named = resourceOf(uri)
  if (named === undefined) return Effect.succeed(new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}`))
  const scope = scopeOfResource(named.variant)
  return (scope === undefined ? Effect.void : caller.authorize(scope)).pipe(
    // the session's products only: those its catalogue holds
    Effect.andThen(readResource(named.productName, named.variant, catalogue.productNames)),
    Effect.map((content): ReadResourceResult | McpError => ({ contents: [content] })),
    Effect.catch((failure) =>
      Effect.succeed(
        failure._tag === "ProductNotFound"
          ? new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}: ${toolErrorOf(failure).text}`)
          : new McpError(ErrorCode.InvalidRequest, toolErrorOf(failure).text)
      )
    ),
    Effect.catchCause(() => Effect.succeed(new McpError(ErrorCode.InternalError, "The service failed while reading.")))
  )
}

/**
 * The server answering `caller`, with the tools and resources of `catalogue` (the products the caller's partner may
 * sell: `catalogueShown`), each call run by `run`; for a sandbox key's caller, its instructions and tools' output
 * schemas say its answers are the sandbox's.
 */
export const serverFor = <R>(
  catalogue: ProductCatalogue.Catalogue,
  caller: Caller<R>,
  run: Run<R>,
  settings: ServerSettings
): Server => {
  const sandbox = caller.environment === "sandbox"
  const tools = sandbox ? sandboxToolsOf(catalogue) : toolsOf(catalogue)
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const server = new Server(
    { name: "kasko", title: "kasko car insurance", version: settings.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: sandbox ? `${INSTRUCTIONS} ${SANDBOX_INSTRUCTIONS}` : INSTRUCTIONS,
      jsonSchemaValidator: VALIDATOR
    }
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listed) }))
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        `No tool is named ${JSON.stringify(request.params.name)}: the tools are ${TOOL_NAMES.join(", ")}.`
      )
    return run(callTool(tool, request.params.arguments ?? {}, caller, settings))
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...resourcesOf(catalogue)] }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const read = await run(resourceProgram(request.params.uri, caller, catalogue))
    if (read instanceof McpError) throw read
    return read
  })
  return server
}
