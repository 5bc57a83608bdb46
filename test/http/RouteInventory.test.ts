/** Every route Express serves is described in /openapi.json: no undocumented endpoint can slip in. */
import { IdGenerator, Readiness, TariffBook } from "@kasko/core"
import { makeApp, openApiDocument, OPERATIONS } from "@kasko/express"
import { MemoryQuoteStore } from "@kasko/memory"
import { Layer, ManagedRuntime } from "effect"
import type { Express } from "express"
import { pino } from "pino"
import { afterAll, describe, expect, it } from "vitest"

const store = MemoryQuoteStore.layer
const runtime = ManagedRuntime.make(Layer.mergeAll(store, Readiness.layer.pipe(Layer.provide(store)), IdGenerator.layerSequential, TariffBook.shipped))
afterAll(() => runtime.dispose())

interface Layered {
  readonly route?: { readonly path: string; readonly methods: Record<string, boolean> }
  readonly handle?: { readonly stack?: ReadonlyArray<Layered> }
}

/** Express 5 spells `app.all` as every method by name: those are the 405 answers, not endpoints. */
const isAnyMethod = (methods: Record<string, boolean>) => ["acl", "get", "post", "put", "delete", "patch"].every((method) => methods[method])

/** Every (method, path) Express routes to a handler, nested routers included. */
const expressRoutes = (stack: ReadonlyArray<Layered>): Array<string> =>
  stack.flatMap((layer) => {
    if (layer.route !== undefined) {
      if (isAnyMethod(layer.route.methods)) return []
      const methods = Object.keys(layer.route.methods).filter((method) => method !== "_all")
      return methods.map((method) => `${method.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, "{$1}")}`)
    }
    return layer.handle?.stack === undefined ? [] : expressRoutes(layer.handle.stack)
  })

describe("the route inventory", () => {
  it("finds every Express route in the OpenAPI document", () => {
    const app = makeApp({
      runtime,
      logger: pino({ level: "silent" }),
      authenticate: async () => ({ partnerId: "p", rateLimitKey: "p" }),
      bodyLimitBytes: 1_000,
      protection: { requestsPerMinute: 10, failedAuthenticationsPerMinute: 10, corsOrigins: [] },
      requestTimeoutMillis: 1_000,
      document: { version: "1", serverUrl: "http://localhost" }
    }) as Express & { router: { stack: ReadonlyArray<Layered> } }
    const document = openApiDocument(OPERATIONS, { version: "1", serverUrl: "http://localhost" }) as { paths: Record<string, Record<string, unknown>> }
    const documented = new Set(Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)))
    const routes = expressRoutes(app.router.stack)
    expect(routes.length).toBeGreaterThanOrEqual(OPERATIONS.length + 3)
    expect(routes.filter((route) => !documented.has(route))).toEqual([])
    // and the five operations of spec §4 are among them
    for (const route of ["GET /products/{product_name}", "POST /insurance/car/offers", "POST /insurance/car/quotes", "GET /insurance/car/quotes/{quote_id}", "POST /insurance/car/quotes/{quote_id}/activation"]) {
      expect(routes).toContain(route)
    }
  })
})
