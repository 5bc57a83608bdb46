/** Every route the app serves — Express's and the operation table's — is described in /openapi.json: no undocumented endpoint can slip in; and each operation's statuses are known as the document lists them. */
import { Layer, ManagedRuntime } from "effect"
import type { Express } from "express"
import { pino } from "pino"
import { afterAll, describe, expect, it } from "vitest"
import { makeApp } from "../src/App.js"
import { documentedStatuses, openApiDocument } from "../src/OpenApiDocument.js"
import { OPERATIONS, type Services } from "../src/Operations.js"

// the app is only built, never asked: a runtime with no services serves
const runtime = ManagedRuntime.make(Layer.empty) as unknown as ManagedRuntime.ManagedRuntime<Services, never>
afterAll(() => runtime.dispose())

interface Layered {
  readonly route?: { readonly path: string; readonly methods: Record<string, boolean> }
  readonly handle?: { readonly stack?: ReadonlyArray<Layered> }
}

/** Express 5 spells `app.all` as every method by name: those are the 405 answers, not endpoints. */
const isAnyMethod = (methods: Record<string, boolean>) =>
  ["acl", "get", "post", "put", "delete", "patch"].every((method) => methods[method])

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
      bodyLimitBytes: 1_000,
      protection: { requestsPerMinute: 10, failedAuthenticationsPerMinute: 10, corsOrigins: [] },
      requestTimeoutMillis: 1_000,
      document: { version: "1", serverUrl: "http://localhost" }
    }) as Express & { router: { stack: ReadonlyArray<Layered> } }
    const document = openApiDocument(OPERATIONS, { version: "1", serverUrl: "http://localhost" }) as {
      paths: Record<string, Record<string, unknown>>
    }
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)
      )
    )
    const routes = expressRoutes(app.router.stack)
    expect(routes.filter((route) => !documented.has(route))).toEqual([])
    // each operation of the table the document is made from is an Express route of its own
    for (const operation of OPERATIONS) {
      expect(documented).toContain(`${operation.method.toUpperCase()} ${operation.path}`)
      expect(routes).toContain(`${operation.method.toUpperCase()} ${operation.path}`)
    }
    // and the document's own routes are Express's
    for (const route of ["GET /openapi.json", "GET /asyncapi.json", "GET /docs", "GET /docs/init.js"])
      expect(routes).toContain(route)
  })

  it("knows each operation's statuses as the document lists them (the metrics start a counter at 0 for each)", () => {
    const document = openApiDocument(OPERATIONS, { version: "1", serverUrl: "http://localhost" }) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>
    }
    for (const operation of OPERATIONS)
      expect(documentedStatuses(operation).map(String)).toEqual(
        Object.keys(document.paths[operation.path]![operation.method]!.responses)
      )
  })
})
