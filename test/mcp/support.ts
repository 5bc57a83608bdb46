/** MCP end to end: the SDK's own client, over the service's streamable HTTP endpoint or a `kasko mcp` process's stdio. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { join } from "node:path"
import { createInterface } from "node:readline"
import type { Readable } from "node:stream"

const KASKO = join(import.meta.dirname, "..", "..", "packages", "server", "bin", "kasko.mjs")

const client = () => new Client({ name: "kasko-tests", version: "1.0.0" })

/** A client connected to the service's `/mcp` with the given headers (a partner's token and subscription key). */
export const httpClient = async (url: string, headers: Record<string, string>): Promise<Client> => {
  const connected = client()
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }))
  return connected
}

/** A session of `kasko mcp`: its client, its log lines on standard error, and what the client could not read. */
export interface StdioSession {
  readonly client: Client
  /** The client's errors from its start: a line on standard output that is not a JSON-RPC message is one. */
  readonly errors: ReadonlyArray<Error>
  /** Resolves with the first `count` log lines `matches` takes, at once if they were written already, or when they are. */
  readonly logged: (
    matches: (line: Record<string, unknown>) => boolean,
    count: number
  ) => Promise<Array<Record<string, unknown>>>
}

/** A client of `kasko mcp --partner <partner>` started on the data directory, its standard error read as log lines. */
export const stdioClient = async (dataDirectory: string, partner: string): Promise<StdioSession> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [KASKO, "mcp", "--partner", partner],
    env: { ...(process.env as Record<string, string>), KASKO_DATA_DIR: dataDirectory, KASKO_LOG_LEVEL: "info" },
    stderr: "pipe"
  })
  const lines: Array<Record<string, unknown>> = []
  const waiting = new Set<() => void>()
  createInterface({ input: transport.stderr as Readable }).on("line", (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>)
    for (const told of waiting) told()
  })
  const logged = (matches: (line: Record<string, unknown>) => boolean, count: number) =>
    new Promise<Array<Record<string, unknown>>>((resolve) => {
      const check = () => {
        const found = lines.filter(matches)
        if (found.length < count) return
        waiting.delete(check)
        resolve(found.slice(0, count))
      }
      waiting.add(check)
      check()
    })
  const connected = client()
  const errors: Array<Error> = []
  connected.onerror = (error) => errors.push(error)
  await connected.connect(transport)
  return { client: connected, logged, errors }
}

/** A tool's result, as the SDK types it for a tool that answers content. */
export const call = async (connected: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await connected.callTool({ name, arguments: args })) as CallToolResult

/** The texts of a result's content blocks. */
export const textsOf = (result: CallToolResult): Array<string> =>
  result.content.flatMap((block) => (block.type === "text" ? [block.text] : []))

/** The violations a tool error carries as JSON, as the REST API's 400 problem lists them. */
export const violationsOf = (result: CallToolResult): unknown =>
  JSON.parse(textsOf(result).find((text) => text.startsWith('{"violations"')) ?? "{}").violations
