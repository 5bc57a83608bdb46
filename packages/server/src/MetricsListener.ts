/**
 * The metrics listener: Prometheus's scrape endpoint, `GET /metrics`, on a
 * port of its own (KASKO_METRICS_PORT) so that it is never reachable where
 * partners are — operators expose it to their monitoring only.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Registry } from "prom-client"

export interface MetricsListener {
  readonly port: number
  readonly close: () => Promise<void>
}

const answer = (server: Server, registry: Registry) =>
  server.on("request", (request, response) => {
    if (request.url !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("only GET /metrics here\n")
      return
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain; charset=utf-8" })
          .end(`metrics failed: ${String(error)}\n`)
    )
  })

export const listenForMetrics = (registry: Registry, port: number, host: string): Promise<MetricsListener> =>
  new Promise((resolve, reject) => {
    const server = answer(createServer(), registry)
    server.once("error", reject)
    server.listen(port, host, () => {
      server.off("error", reject)
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((closed) => {
            server.close(() => closed())
            server.closeAllConnections()
          })
      })
    })
  })
