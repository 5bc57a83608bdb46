/** A webhook receiver for tests: an HTTP server on 127.0.0.1 that records every request and answers what it is told. */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  /** Resolves once `count` requests have been received (at once when they have). */
  readonly receivedAtLeast: (count: number) => Promise<void>
  /** The status (and headers) the next requests are answered with (204 to begin with). */
  answerWith: (status: number, headers?: Record<string, string>) => void
  readonly close: () => Promise<void>
}

/** A delivery's headers as the Standard Webhooks verifier takes them: each a string. */
export const headersOf = (received: Received): Record<string, string> =>
  Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, String(value)]))

export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<Received> = []
  const waiting: Array<{ readonly count: number; readonly resolve: () => void }> = []
  let status = 204
  let headers: Record<string, string> = {}
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(status, headers).end()
      for (const waiter of waiting.filter(({ count }) => received.length >= count)) {
        waiting.splice(waiting.indexOf(waiter), 1)
        waiter.resolve()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    receivedAtLeast: (count) =>
      received.length >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    answerWith: (next, nextHeaders = {}) => {
      status = next
      headers = nextHeaders
    },
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
