/**
 * A TCP relay in front of the test database that can refuse the connections of
 * one application name: a suite points the service at `url`, and while the
 * name is refused, new connections giving it are closed at once — as a network
 * that keeps losing them would — while every other connection passes. The name
 * is read from the startup message, which a client without TLS sends in the clear.
 */
import { createConnection, createServer, type Socket } from "node:net"

export interface ConnectionGate {
  /** The test database's URL, through the gate. */
  readonly url: string
  /** Closes new connections whose application_name is `name`, until `admit`; open ones are left alone. */
  readonly refuse: (name: string) => void
  readonly admit: () => void
  /** Stops relaying, both ways, on the open connections of `name`, closing nothing: a network that went silent. */
  readonly stall: (name: string) => void
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
      open.add(client)
      relays.set(client, { name, upstream })
      client.on("close", () => {
        open.delete(client)
        relays.delete(client)
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
        relay.upstream.pause()
      }
    },
    close: async () => {
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
