/** The served document is valid OpenAPI 3.0, carries the boilerplate of spec §9, and says what answers can be. */
import { Validator } from "@seriousme/openapi-schema-validator"
import { Authentication } from "@kasko/core"
import { ProductCatalogue, TariffDocuments } from "@kasko/core/actuarial"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestService, type TestService } from "./support.js"

let server: TestService
let document: any
beforeAll(async () => {
  server = await startTestService({ environment: { KASKO_PUBLIC_URL: "https://api.partner.example" } })
  document = await (await fetch(`${server.url}/openapi.json`)).json()
})
afterAll(() => server.stop())

/** A request's raw bytes on a socket of its own; answers the status and the problem the service sent. */
const rawExchange = (bytes: string) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const url = new URL(server.url)
    let text = ""
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes))
    socket.on("data", (chunk) => (text += String(chunk)))
    socket.on("close", () =>
      resolve({
        status: Number(text.slice(9, 12)),
        body: JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))
      })
    )
    socket.on("error", reject)
  })

describe("the OpenAPI document", () => {
  it("passes an OpenAPI 3.0 validator", async () => {
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.0")
  })

  it("carries the boilerplate of spec §9", () => {
    expect(document.openapi).toBe("3.0.1")
    expect(Object.keys(document.info)).toEqual(
      expect.arrayContaining(["title", "description", "termsOfService", "contact", "license", "version"])
    )
    expect(document.servers).toEqual([{ url: "https://api.partner.example", description: expect.any(String) }])
    expect(document.externalDocs.url).toMatch(/^https:\/\//)
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual(
      expect.arrayContaining(["products", "offers", "quotes"])
    )
  })

  it("describes the five operations of spec §4 with problem+json errors", () => {
    const operations = [
      ["/products/{product_name}", "get"],
      ["/insurance/car/offers", "post"],
      ["/insurance/car/quotes", "post"],
      ["/insurance/car/quotes/{quote_id}", "get"],
      ["/insurance/car/quotes/{quote_id}/activation", "post"]
    ] as const
    for (const [path, method] of operations) {
      const operation = document.paths[path][method]
      expect(operation.responses["200"].content["application/json"].schema).toBeDefined()
      expect(operation.responses["500"].content["application/problem+json"].schema).toEqual({
        $ref: "#/components/schemas/Problem"
      })
    }
    expect(
      document.paths["/insurance/car/quotes"].post.responses["400"].content["application/problem+json"].schema
    ).toEqual({
      $ref: "#/components/schemas/ConstraintViolationProblem"
    })
  })

  it("documents the credentials, each operation's scope, and the 401 for a missing scope", () => {
    expect(document.components.securitySchemes.bearerToken).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT"
    })
    expect(document.components.securitySchemes.subscriptionKey).toEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "ocp-apim-subscription-key" })
    )
    const createQuote = document.paths["/insurance/car/quotes"].post
    expect(createQuote.security).toEqual([{ bearerToken: [], subscriptionKey: [] }])
    expect(createQuote["x-required-scopes"]).toEqual(["quotes:create"])
    expect(createQuote.responses["401"].description).toContain("not RFC 6750's 403")
    expect(document.paths["/health"].get.security).toEqual([])
  })

  it("names in the bearer token's description every scope a token may carry, webhooks:manage included", () => {
    const description: string = document.components.securitySchemes.bearerToken.description
    expect(description).toContain(`(space separated): ${Authentication.SCOPES.join(", ")}.`)
    expect(description).toContain("webhooks:manage")
    const required = Object.values(document.paths).flatMap((item: any) =>
      Object.values(item).flatMap((operation: any) => operation["x-required-scopes"] ?? [])
    )
    for (const scope of required) expect(Authentication.SCOPES).toContain(scope)
  })

  it("lists for every route a 4XX it really gives: Host sent twice answers the documented 400", async () => {
    const routes = Object.entries(document.paths).flatMap(([template, item]: [string, any]) =>
      Object.entries(item).map(([method, operation]: [string, any]) => ({ template, method, operation }))
    )
    expect(routes.map(({ template }) => template)).toEqual(
      expect.arrayContaining(["/health", "/ready", "/openapi.json", "/asyncapi.json", "/docs", "/docs/init.js"])
    )
    for (const { template, method, operation } of routes) {
      const path = template.replace(
        /\{(\w+)\}/g,
        (_, name) => operation.parameters.find((parameter: any) => parameter.name === name).example
      )
      const answer = await rawExchange(
        `${method.toUpperCase()} ${path} HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`
      )
      const documented = operation.responses["400"]?.content["application/problem+json"]
      expect(documented?.schema, `${method} ${template}`).toEqual({
        $ref: "#/components/schemas/ConstraintViolationProblem"
      })
      expect(answer, `${method} ${template}`).toEqual({
        status: 400,
        body: expect.objectContaining({ status: 400, violations: [{ field: "Host", message: "must be sent once" }] })
      })
      if (operation.requestBody === undefined) expect(answer.body, `${method} ${template}`).toEqual(documented.example)
    }
  })

  it("is generated from the request Schemas: unknown fields are closed, parameters are strings with their options", () => {
    const request = document.components.schemas.QuoteRequest
    expect(request.additionalProperties).toBe(false)
    expect(request.required).toEqual(["product", "policy", "agent"])
    const parameters = request.properties.product.properties.parameters
    expect(parameters.additionalProperties).toBe(false)
    expect(parameters.properties.vehicle_usage.enum).toContain("godstransport_privat/erhverv")
    expect(parameters.properties.vehicle_price.type).toBe("string")
  })

  it("documents every maximum a request field has", () => {
    const request = document.components.schemas.QuoteRequest
    const parameters = request.properties.product.properties.parameters.properties
    expect(parameters.vehicle_price).toMatchObject({ pattern: "^[0-9]{1,12}$", maxLength: 12 })
    // optional strings document that a blank value is accepted (and counts as absent)
    expect(parameters.youngest_user_birthdate).toMatchObject({
      pattern: "^\\s*$|^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
      maxLength: 10
    })
    const policy = request.properties.policy.properties
    expect(policy.parties).toMatchObject({ maxItems: 10, minItems: 1 })
    expect(policy.brand_id.maxLength).toBe(50)
    const party = policy.parties.items.properties
    expect(party.person.properties.first_name.maxLength).toBe(100)
    expect(party.email.maxLength).toBe(254)
    expect(request.properties.agent.properties.user_id.maxLength).toBe(100)
    // every string of the request has a maximum, so no field takes unbounded text
    const unbounded: Array<string> = []
    const visit = (schema: any, path: string) => {
      if (schema === undefined || schema === null) return
      if (
        schema.type === "string" &&
        schema.enum === undefined &&
        schema.maxLength === undefined &&
        schema.pattern === undefined
      )
        unbounded.push(path)
      for (const [name, property] of Object.entries(schema.properties ?? {})) visit(property, `${path}.${name}`)
      if (schema.items !== undefined) visit(schema.items, `${path}[]`)
    }
    visit(request, "QuoteRequest")
    expect(unbounded).toEqual([])
  })
})

describe("the quote answers in the document", () => {
  it("say their state and expiry: each form's status one value, a retrieval's two forms told apart by it", () => {
    const schemas = document.components.schemas
    const statusOf = (name: string) => schemas[name].properties.status.enum
    expect([statusOf("Quote"), statusOf("ActivatedQuote"), statusOf("ActivationAnswer")]).toEqual([
      ["await_activation"],
      ["activated"],
      ["activated"]
    ])
    for (const name of ["Quote", "ActivatedQuote", "ActivationAnswer"]) {
      expect(schemas[name].required).toEqual(expect.arrayContaining(["status", "expires_at"]))
      expect(schemas[name].properties.expires_at.type).toBe("string")
    }
    const retrieved =
      document.paths["/insurance/car/quotes/{quote_id}"].get.responses["200"].content["application/json"]
    expect(retrieved.schema).toEqual({
      oneOf: [{ $ref: "#/components/schemas/Quote" }, { $ref: "#/components/schemas/ActivatedQuote" }],
      discriminator: {
        propertyName: "status",
        mapping: {
          await_activation: "#/components/schemas/Quote",
          activated: "#/components/schemas/ActivatedQuote"
        }
      }
    })
    // the examples say the state their schema does
    expect(retrieved.examples.awaiting_activation.value.status).toBe("await_activation")
    expect(retrieved.examples.activated.value.status).toBe("activated")
  })

  it("list the catalogue's values for the answer fields that can take no other: product, feature and coverage names", () => {
    const schemas = document.components.schemas
    const quoted = schemas.Quote.properties.product.properties
    const offered = schemas.PriceOffer.properties.product.properties
    expect(quoted.product_name.enum).toEqual(
      ProductCatalogue.PRODUCT_NAMES.flatMap((name) =>
        (["standard", "extended"] as const).map((variant) => ProductCatalogue.quotedProductName(name, variant))
      )
    )
    expect(offered.product_name.enum).toEqual([...ProductCatalogue.PRODUCT_NAMES])
    for (const product of [quoted, offered])
      expect(product.features.items.properties.name.enum).toEqual([...ProductCatalogue.FEATURE_NAMES])
    // every coverage a shipped tariff adds, and every charge it lists as a coverage
    const shippedCoverages = new Set(
      TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS).flatMap((tariff) =>
        tariff.rules.flatMap(({ event }) =>
          event.type === "add_coverage"
            ? [event.params.coverage]
            : event.type === "list_charge_as_coverage"
              ? [event.params.charge]
              : []
        )
      )
    )
    const coverageNames = (policies: any) => policies.items.properties.coverages.items.properties.name.enum
    for (const policies of [schemas.Quote.properties.policies, schemas.PriceOffer.properties.policies])
      expect(new Set(coverageNames(policies))).toEqual(shippedCoverages)
  })
})
