/**
 * A TCP relay in front of the test database that can refuse the connections of
 * one application name: a suite points the service at `url`, and while the
 * name is refused, new connections giving it are closed at once — as a network
 * that keeps losing them would — while every other connection passes. The name
 * is read from the startup message, which a client without TLS sends in the clear.
 * It also tells a suite what it saw pass, so that the suite can wait for that
 * rather than for time: bytes from the database (a notification, a command's
 * answer) on a name's connections, and their closing.
 */
import { createConnection, createServer, type Socket } from "node:net"

export interface ConnectionGate {
  /** The test database's URL, through the gate. */
  readonly url: string
  /** Closes new connections whose application_name is `name`, until `admit`; open ones are left alone. */
  readonly refuse: (name: string) => void
  readonly admit: () => void
  /**
   * Stops relaying, both ways, on the open connections of `name`, closing nothing: a network that went silent.
   * What the database sends them still reaches the gate (and `arrived`), and goes no further.
   */
  readonly stall: (name: string) => void
  /**
   * Resolves once bytes containing `text` (a notification's payload, a command's tag) have come from the database
   * on `connections` connections of `name` since the call: relayed to the client, or held by `stall`.
   */
  readonly arrived: (name: string, text: string, connections?: number) => Promise<void>
  /** Resolves once `connections` connections of `name` open at the call or opened since have been closed. */
  readonly closed: (name: string, connections?: number) => Promise<void>
  readonly close: () => Promise<void>
}

const STARTUP_LENGTH_BYTES = 4

/** The application_name of a startup message, if it has one. */
const applicationNameOf = (startup: Buffer): string | undefined => {
  // length, protocol version, then name\0value\0 pairs
  const fields = startup.subarray(8).toString("utf8").split("\0")
  const index = fields.indexOf("application_name")
  return index === -1 ? undefined : fields[index + 1]
}

export const openConnectionGate = async (databaseUrl: string): Promise<ConnectionGate> => {
  const target = new URL(databaseUrl)
  let refused: string | undefined
  const open = new Set<Socket>()
  const relays = new Map<Socket, { readonly name: string | undefined; readonly upstream: Socket }>()
  // what the suite waits for: the text from the database on each connection so far, and the connections closed
  const arrivals = new Set<{
    readonly name: string
    readonly text: string
    readonly wanted: number
    readonly seen: Map<Socket, string>
    readonly resolve: () => void
  }>()
  const closings = new Set<{ readonly name: string; remaining: number; readonly resolve: () => void }>()
  const fromDatabase = (client: Socket, name: string | undefined, chunk: Buffer) => {
    for (const arrival of arrivals) {
      if (arrival.name !== name) continue
      const text = (arrival.seen.get(client) ?? "") + chunk.toString("latin1")
      arrival.seen.set(client, text)
      if ([...arrival.seen.values()].filter((seen) => seen.includes(arrival.text)).length < arrival.wanted) continue
      arrivals.delete(arrival)
      arrival.resolve()
    }
  }
  const closedOne = (name: string | undefined) => {
    for (const closing of closings) {
      if (closing.name !== name || --closing.remaining > 0) continue
      closings.delete(closing)
      closing.resolve()
    }
  }

  const server = createServer((client) => {
    client.on("error", () => undefined)
    let startup = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      startup = Buffer.concat([startup, chunk])
      if (startup.length < STARTUP_LENGTH_BYTES || startup.length < startup.readInt32BE(0)) return
      client.off("data", onData)
      const name = applicationNameOf(startup)
      if (name !== undefined && name === refused) return void client.destroy()
      const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
      upstream.on("error", () => client.destroy())
      client.on("close", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
      upstream.write(startup)
      client.pipe(upstream)
      upstream.pipe(client)
      upstream.on("data", (chunk: Buffer) => fromDatabase(client, name, chunk))
      open.add(client)
      relays.set(client, { name, upstream })
      client.on("close", () => {
        open.delete(client)
        relays.delete(client)
        closedOne(name)
      })
    }
    client.on("data", onData)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the gate listens on no port")
  const url = new URL(databaseUrl)
  url.hostname = "127.0.0.1"
  url.port = String(address.port)

  return {
    url: url.toString(),
    refuse: (name) => {
      refused = name
    },
    admit: () => {
      refused = undefined
    },
    stall: (name) => {
      for (const [client, relay] of relays) {
        if (relay.name !== name) continue
        client.unpipe(relay.upstream)
        relay.upstream.unpipe(client)
        client.pause()
        // read on, for `arrived`; nothing more reaches the client
        relay.upstream.resume()
      }
    },
    arrived: (name, text, connections = 1) =>
      new Promise((resolve) => {
        arrivals.add({ name, text, wanted: connections, seen: new Map(), resolve })
      }),
    closed: (name, connections = 1) =>
      new Promise((resolve) => {
        closings.add({ name, remaining: connections, resolve })
      }),
    close: async () => {
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
