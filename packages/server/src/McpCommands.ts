/** `kasko mcp`: kasko's MCP tools on stdio, for an AI agent on this machine. Definition only; `McpAction.ts` serves. */
import type { KaskoCommand } from "./KaskoCommand.js"

export const MCP_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "mcp",
    describe:
      "serve kasko's MCP tools (price, explain, compare, quote) on standard input and output to an AI agent on this machine, acting as a partner",
    options: (argv) =>
      argv
        .option("partner", {
          type: "string",
          demandOption: true,
          requiresArg: true,
          describe:
            "the partner the agent acts for, with every scope of the partner API (products:read offers:create quotes:create quotes:read quotes:activate): its quotes are the ones it creates and reads"
        })
        .option("products", {
          type: "string",
          requiresArg: true,
          describe:
            "a directory of product folders sold beside the shipped products (as KASKO_PRODUCTS_DIR; kasko products check DIR checks it)"
        })
        .epilogue(`The session works on the service's store, as the administration commands do: KASKO_DATABASE_URL when set, else the SQLite file in KASKO_DATA_DIR (default ./data). Standard output carries the protocol and nothing else; the log (one line per tool call) goes to standard error. It ends when the agent closes standard input.

An MCP client starts it as a command, for example:
  {"mcpServers": {"kasko": {"command": "npx", "args": ["kasko", "mcp", "--partner", "bilhuset"]}}}`),
    run: async (argv) => (await import("./McpAction.js")).serveMcp(argv)
  }
]
