/**
 * A document client generators and "Try it out" can trust: every request body
 * and answer carries an example that its schema accepts, every documented
 * request example works when sent with real credentials, the headers answers
 * carry are declared, and nothing of the schema library leaks into it.
 */
import { Ajv } from "ajv"
import addFormats from "ajv-formats"
import { describe, expect, it } from "vitest"
import { serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("examples", ["bilhuset"])

type Json = any

const operationsOf = (document: Json) =>
  Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({ path, method, operation }))
  )

/** Every example of a media type, named. */
const examplesOf = (mediaType: Json): Array<[string, unknown]> =>
  mediaType.example !== undefined
    ? [["example", mediaType.example]]
    : Object.entries(mediaType.examples ?? {}).map(([name, example]) => [name, (example as { value: unknown }).value])

const pointer = (...parts: Array<string>) =>
  parts.map((part) => `/${part.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("")

/** Checks a value against the schema at a JSON pointer into the document; answers ajv's errors. */
const validatorFor = (document: Json) => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...document, $id: "openapi.json" })
  return (schemaPointer: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `openapi.json#${schemaPointer}` })
    return validate(value) ? [] : validate.errors
  }
}

describe("the document's examples", () => {
  it("give every request body and every answer an example its schema accepts", () => {
    const document = service.client.document as Json
    const check = validatorFor(document)
    const problems: Array<string> = []
    for (const { path, method, operation } of operationsOf(document)) {
      if (path === "/openapi.json" || path === "/asyncapi.json" || path.startsWith("/docs")) continue
      const bodies = [
        ...(operation.requestBody === undefined
          ? []
          : [["request", ["requestBody", "content", "application/json"]] as const]),
        // JSON answers; a document's (a PDF's bytes) and a 304's (no body) have nothing to show
        ...Object.entries(operation.responses as Record<string, Json>)
          .filter(([, response]) => Object.keys(response.content ?? {}).some((mediaType) => mediaType.includes("json")))
          .map(
            ([status, response]) =>
              [status, ["responses", status, "content", Object.keys(response.content)[0]!]] as const
          )
      ]
      for (const [what, at] of bodies) {
        const mediaType = at.reduce((node: Json, key) => node[key], operation)
        const examples = examplesOf(mediaType)
        if (examples.length === 0) problems.push(`${method} ${path} ${what}: no example`)
        for (const [name, value] of examples) {
          const errors = check(pointer("paths", path, method, ...at, "schema"), value)
          if (errors !== null && errors !== undefined && errors.length > 0)
            problems.push(`${method} ${path} ${what} ${name}: ${JSON.stringify(errors)}`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it("describe documents as bytes of their media type, with the headers that cache them", () => {
    const document = service.client.document as Json
    const documents = operationsOf(document).filter(
      ({ operation }) => operation.responses["200"].content["application/pdf"]
    )
    expect(documents.map(({ path }) => path).sort()).toEqual([
      "/insurance/car/quotes/{quote_id}/document",
      "/privacy-policy",
      "/products/{product_name}/variants/{variant}/ipid"
    ])
    for (const { operation } of documents) {
      expect(operation.responses["200"].content["application/pdf"].schema).toEqual({ type: "string", format: "binary" })
      expect(Object.keys(operation.responses["200"].headers)).toEqual(
        expect.arrayContaining(["Cache-Control", "Content-Disposition"])
      )
    }
    const ipid = document.paths["/products/{product_name}/variants/{variant}/ipid"].get
    expect(Object.keys(ipid.responses["200"].headers)).toContain("ETag")
    expect(Object.keys(ipid.responses["304"].headers)).toEqual(expect.arrayContaining(["ETag", "Cache-Control"]))
  })

  it("work when sent with real credentials: each request example gets a status its operation documents, bodies 200", async () => {
    const document = service.client.document as Json
    const sent: Array<string> = []
    for (const { path, method, operation } of operationsOf(document)) {
      if (path === "/openapi.json" || path.startsWith("/docs")) continue
      const concretePath = (operation.parameters ?? [])
        .filter((parameter: Json) => parameter.in === "path")
        .reduce(
          (filled: string, parameter: Json) =>
            filled.replace(`{${parameter.name}}`, encodeURIComponent(parameter.example)),
          path
        )
      const body = operation.requestBody?.content["application/json"].example
      const answer = await service.client.request(method.toUpperCase(), concretePath, {
        headers: service.partners["bilhuset"]!.headers,
        ...(body === undefined ? {} : { body })
      })
      expect(Object.keys(operation.responses), `${method} ${concretePath} → ${answer.status}`).toContain(
        String(answer.status)
      )
      if (body !== undefined) expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200)
      sent.push(`${method} ${path} ${answer.status}`)
    }
    expect(sent).toEqual(
      expect.arrayContaining([
        "post /insurance/car/offers 200",
        "post /insurance/car/quotes 200",
        "get /products/{product_name} 200"
      ])
    )
  })
})

describe("the document's declarations", () => {
  it("declares the headers answers carry: WWW-Authenticate on 401, Retry-After on 429 and 503, RateLimit-* where the rate limit counts", () => {
    const document = service.client.document as Json
    for (const { path, method, operation } of operationsOf(document)) {
      const responses = operation.responses as Record<string, Json>
      if (responses["401"] !== undefined)
        expect(Object.keys(responses["401"].headers), `${method} ${path}`).toContain("WWW-Authenticate")
      for (const status of ["429", "503"])
        if (responses[status] !== undefined)
          expect(Object.keys(responses[status].headers), `${method} ${path} ${status}`).toContain("Retry-After")
      if (operation.security?.length > 0) {
        expect(Object.keys(responses["200"].headers), `${method} ${path}`).toEqual(
          expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"])
        )
      }
    }
    const createQuote = document.paths["/insurance/car/quotes"].post
    expect(createQuote.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Idempotency-Key", in: "header" })])
    )
  })

  it("gives every public endpoint an explicit empty security requirement", () => {
    const document = service.client.document as Json
    const publicOnes = operationsOf(document).filter(
      ({ operation }) => operation.security === undefined || operation.security.length === 0
    )
    expect(publicOnes.map(({ path }) => path).sort()).toEqual([
      "/asyncapi.json",
      "/docs",
      "/docs/init.js",
      "/health",
      "/openapi.json",
      "/privacy-policy",
      "/products/{product_name}/variants/{variant}/ipid",
      "/ready"
    ])
    for (const { operation } of publicOnes) expect(operation.security).toEqual([])
  })

  it("answers activation with an object of no properties (but a sandbox's environment), or the quote's state when a client prefers it", () => {
    const document = service.client.document as Json
    expect(document.components.schemas.EmptyAnswer).toEqual({
      type: "object",
      description: "An empty JSON object",
      properties: { environment: expect.objectContaining({ enum: ["sandbox"] }) },
      additionalProperties: false
    })
    expect(Object.keys(document.components.schemas.ActivationAnswer.properties)).toEqual([
      "status",
      "expires_at",
      "environment"
    ])
    const activation = document.paths["/insurance/car/quotes/{quote_id}/activation"].post
    expect(activation.responses["200"].content["application/json"].schema).toEqual({
      oneOf: [{ $ref: "#/components/schemas/EmptyAnswer" }, { $ref: "#/components/schemas/ActivationAnswer" }]
    })
    expect(activation.responses["200"].headers["Preference-Applied"]).toEqual({
      $ref: "#/components/headers/PreferenceApplied"
    })
    expect(activation.parameters.map((parameter: Json) => parameter.name)).toContain("Prefer")
  })

  it("shows nothing of the schema library: no Int component, no generated titles or descriptions", () => {
    const schemas = (service.client.document as Json).components.schemas as Record<string, Json>
    expect(Object.keys(schemas).sort()).toEqual(
      [
        "ActivatedQuote",
        "ActivationAnswer",
        "ConstraintViolationProblem",
        "HealthAnswer",
        "OfferRequest",
        "PriceOffer",
        "Problem",
        "ProductDefinition",
        "Quote",
        "QuoteRequest",
        "EmptyAnswer",
        "WebhookDeliveryList",
        "WebhookRecoveryAnswer",
        "WebhookRecoveryRequest",
        "WebhookSubscription",
        "WebhookSubscriptionList",
        "WebhookSubscriptionRequest",
        "WebhookSubscriptionWithSecret"
      ].sort()
    )
    const leaks: Array<string> = []
    const visit = (schema: Json, at: string) => {
      if (typeof schema !== "object" || schema === null) return
      if ("title" in schema) leaks.push(`${at}: title ${schema.title}`)
      if (typeof schema.description === "string" && /item\(s\)|^an? (integer|string|number)$/.test(schema.description))
        leaks.push(`${at}: ${schema.description}`)
      for (const [name, property] of Object.entries(schema.properties ?? {})) visit(property, `${at}.${name}`)
      for (const key of ["items", "additionalProperties", "not"]) visit(schema[key], `${at}.${key}`)
      for (const key of ["anyOf", "oneOf", "allOf"])
        for (const [index, member] of (schema[key] ?? []).entries()) visit(member, `${at}.${key}[${index}]`)
    }
    for (const [name, schema] of Object.entries(schemas)) visit(schema, name)
    expect(leaks).toEqual([])
  })

  it("answers 405 with Allow to another method on the reference page's script, as on the page", async () => {
    for (const path of ["/docs", "/docs/init.js"]) {
      const answer = await service.client.request("POST", path)
      expect(answer.status).toBe(405)
      expect(answer.headers.get("allow")).toBe("GET, HEAD")
    }
  })
})
