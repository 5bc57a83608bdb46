/**
 * `@kasko/mcp`: kasko as an MCP server — tools that price, explain and quote as the REST API does, and the products'
 * definitions and IPIDs as resources — over streamable HTTP (`mcpEndpoint`, served by the express adapter's app at
 * `/mcp`) or stdio (`serveStdio`, for an agent on the operator's machine).
 * @module
 */
export {
  MCP_SCOPES,
  mcpEndpoint,
  type McpCall,
  type McpEndpoint,
  type McpEndpointOptions,
  type McpEndpointServices,
  type McpHttpAnswer
} from "./HttpEndpoint.js"
export { serveStdio, type StdioOptions } from "./Stdio.js"
export type { JsonObject } from "./JsonSchemas.js"
export type { CallLog, CallSettings, ToolCallObserver, ToolOutcome } from "./ToolCalls.js"
export {
  TOOL_NAMES,
  type Tool,
  type ToolHints,
  type ToolAnswer,
  type ToolName,
  type ToolServices,
  toolsOf
} from "./Tools.js"
export { INSTRUCTIONS } from "./ToolServer.js"
