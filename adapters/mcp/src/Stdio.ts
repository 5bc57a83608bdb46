/**
 * The MCP server over stdio, for an agent on the operator's own machine (`kasko mcp --partner ID`): one session on
 * standard input and output, acting as one partner with every scope — whoever can start it can open the store
 * anyway. Nothing but the protocol is written to standard output. Each call runs as one Effect program in the
 * session's runtime.
 */
import { TariffBook } from "@kasko/core"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { Effect, type ManagedRuntime } from "effect"
import type { Readable, Writable } from "node:stream"
import { catalogueShown } from "./ProductsShown.js"
import type { Caller, CallSettings } from "./ToolCalls.js"
import { serverFor } from "./ToolServer.js"
import type { ToolServices } from "./Tools.js"

/** What a stdio session runs on and acts as: the runtime, the partner, and what hears of its calls. */
export interface StdioOptions extends CallSettings {
  /** The runtime holding the stores, ids and tariffs, built once for the session. */
  readonly runtime: ManagedRuntime.ManagedRuntime<ToolServices, unknown>
  /** The partner the session acts for: its quotes are the ones it creates and reads. */
  readonly partnerId: string
  /**
   * The products the partner may sell, as the session found them when it started; absent: every product. The session
   * lists, sells and reads only these until it ends: a change is obeyed from the next session on.
   */
  readonly products?: ReadonlyArray<string>
  /** The version the server names itself with; kasko's. */
  readonly version?: string
  /** Where the protocol is read and written: the process's standard input and output unless given. */
  readonly input?: Readable
  readonly output?: Writable
  /** Ends the session when it aborts (the command's SIGTERM), as the input's end does. */
  readonly signal?: AbortSignal
}

/**
 * Serves MCP on stdio until the input ends (the client closed it) or `signal` aborts; resolves then, once the calls
 * in progress are answered.
 */
export const serveStdio = async (options: StdioOptions): Promise<void> => {
  const book = await options.runtime.runPromise(Effect.service(TariffBook.TariffBook))
  const caller: Caller<never> = {
    transport: "stdio",
    environment: "production",
    authorize: () =>
      Effect.succeed(
        options.products === undefined
          ? { partnerId: options.partnerId }
          : { partnerId: options.partnerId, products: options.products }
      )
  }
  const inProgress = new Set<Promise<unknown>>()
  const server = serverFor(
    catalogueShown(book.catalogue, options.products),
    caller,
    (effect) => {
      const running = options.runtime.runPromise(effect)
      inProgress.add(running)
      void running.finally(() => inProgress.delete(running)).catch(() => undefined)
      return running
    },
    { ...options, version: options.version ?? "0.0.0" }
  )
  const input = options.input ?? process.stdin
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve
  })
  await server.connect(new StdioServerTransport(input, options.output ?? process.stdout))
  const close = async () => {
    await Promise.allSettled([...inProgress])
    // the SDK writes an answer in the turn after its call settles
    await new Promise((resolve) => setImmediate(resolve))
    await server.close()
  }
  const ended = () => void close()
  input.once("end", ended)
  options.signal?.addEventListener("abort", ended, { once: true })
  await closed
  input.off("end", ended)
}
