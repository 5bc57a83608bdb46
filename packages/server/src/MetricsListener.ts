/**
 * The metrics listener: Prometheus's scrape endpoint, `GET /metrics`, on a
 * port of its own (KASKO_METRICS_PORT), bound to 127.0.0.1 unless the operator
 * says otherwise (KASKO_METRICS_HOST), so that it is never reachable where
 * partners are. It shares the service's event loop, so what it costs is
 * bounded however often it is asked: the exposition is made at most once per
 * `freshMillis` (one second), and every scrape in that time gets that text.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Registry } from "prom-client"

export interface MetricsListener {
  readonly port: number
  readonly close: () => Promise<void>
}

/** The registry's exposition, made at most once per `freshMillis` (by `now`, the wall clock unless a test's) and never twice at once. */
export const cachedExposition = (
  registry: Pick<Registry, "metrics">,
  freshMillis: number,
  now: () => number = Date.now
) => {
  let made: { readonly text: Promise<string>; readonly at: number } | undefined
  return (): Promise<string> => {
    const at = now()
    if (made === undefined || at - made.at >= freshMillis) {
      const text = registry.metrics()
      made = { text, at }
      // a failed exposition is not kept: the next scrape tries again
      text.catch(() => {
        if (made?.text === text) made = undefined
      })
    }
    return made.text
  }
}

const FRESH_MILLIS = 1_000

const answer = (server: Server, registry: Registry) => {
  const exposition = cachedExposition(registry, FRESH_MILLIS)
  return server.on("request", (request, response) => {
    if (request.url !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("only GET /metrics here\n")
      return
    }
    exposition().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain; charset=utf-8" })
          .end(`metrics failed: ${String(error)}\n`)
    )
  })
}

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
