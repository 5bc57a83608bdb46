/**
 * End-to-end support: the real service on an ephemeral port with a temporary
 * SQLite file and an adjustable clock, its log lines captured, and an HTTP
 * client that checks every answer against the served OpenAPI document.
 */
import {
  Authentication,
  EventOutbox,
  IdGenerator,
  type QuoteStore,
  Readiness,
  TariffBook,
  WebhookSubscriptions
} from "@kasko/core"
import { PdfDocuments } from "@kasko/documents"
import { type Services, WebhookPolicy } from "@kasko/express"
import { MemoryQuoteStore, MemoryRateLimiter } from "@kasko/memory"
import { makeAdjustableClock, readServiceConfig, startService, type RunningService } from "@kasko/server"
import { Ajv } from "ajv"
import addFormats from "ajv-formats"
import { type Clock, type Duration, Effect, Layer, Result } from "effect"
import { pino } from "pino"
import { temporaryDirectory } from "../support.js"

export interface TestService {
  readonly service: RunningService
  readonly url: string
  readonly dataDirectory: string
  readonly logLines: Array<Record<string, unknown>>
  /** Resolves with the first log line `matches` takes, at once if it was logged already, or when it is. */
  readonly logged: (matches: (line: Record<string, unknown>) => boolean) => Promise<Record<string, unknown>>
  readonly adjustClock: (millis: number) => void
  readonly stop: () => Promise<void>
}

/** Authentication for tests: the partner an `Authorization: Test <partner>` header names, `partner-a` otherwise. */
export const testAuthentication: Layer.Layer<Authentication.Authentication> = Layer.succeed(
  Authentication.Authentication,
  {
    authenticate: (credentials) => {
      const partnerId = /^Test (\S+)$/.exec(credentials.authorization ?? "")?.[1] ?? "partner-a"
      return Effect.succeed({ partnerId, rateLimitKey: partnerId })
    }
  }
)

/** The headers that make a request `partner`'s under testAuthentication. */
export const asPartner = (partner: string) => ({ authorization: `Test ${partner}` })

/** Every service an app needs, over a given quote store, with test authentication: for apps made without the server. */
export const servicesOver = (store: Layer.Layer<QuoteStore.QuoteStore>): Layer.Layer<Services> => {
  const webhooks = MemoryQuoteStore.makeStores()
  return Layer.mergeAll(
    store,
    Readiness.layer.pipe(Layer.provide(store)),
    testAuthentication,
    MemoryRateLimiter.layer,
    IdGenerator.layerSequential,
    TariffBook.shipped,
    PdfDocuments.layer(),
    Layer.succeed(WebhookSubscriptions.WebhookSubscriptions, webhooks.subscriptions),
    Layer.succeed(EventOutbox.EventOutbox, webhooks.outbox),
    Layer.succeed(WebhookPolicy, { allowInsecure: false, allowPrivateAddresses: false })
  )
}

export const startTestService = async (
  options: {
    dataDirectory?: string
    environment?: Record<string, string>
    authentication?: "test" | "real"
    /** What the adjustable clock's sleeps become (its time still moves with `adjustClock`): a test's pace. */
    sleep?: (duration: Duration.Duration, adjustable: Clock.Clock) => Effect.Effect<void>
  } = {}
): Promise<TestService> => {
  const directory = options.dataDirectory ?? temporaryDirectory("kasko-e2e-").path
  const config = Result.getOrThrowWith(
    readServiceConfig({ PORT: "0", HOST: "127.0.0.1", KASKO_DATA_DIR: directory, ...options.environment }),
    (message) => new Error(message)
  )
  const logLines: Array<Record<string, unknown>> = []
  const awaited = new Set<(line: Record<string, unknown>) => void>()
  const logger = pino(
    { level: "info" },
    {
      write: (text: string) => {
        const line = JSON.parse(text) as Record<string, unknown>
        logLines.push(line)
        for (const told of awaited) told(line)
      }
    }
  )
  const logged = (matches: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const already = logLines.find(matches)
      if (already !== undefined) return resolve(already)
      const told = (line: Record<string, unknown>) => {
        if (!matches(line)) return
        awaited.delete(told)
        resolve(line)
      }
      awaited.add(told)
    })
  const clock = makeAdjustableClock()
  const sleep = options.sleep
  // "real" selects the service's own bearer-token authentication
  const service = await startService({
    config,
    clock: sleep === undefined ? clock.clock : { ...clock.clock, sleep: (duration) => sleep(duration, clock.clock) },
    logger,
    ...(options.authentication === "real" ? {} : { authentication: testAuthentication })
  })
  return {
    service,
    url: service.url,
    dataDirectory: directory,
    logLines,
    logged,
    adjustClock: clock.adjust,
    stop: service.stop
  }
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly body: any
}

type OpenApiDocument = { paths: Record<string, Record<string, any>> }

/** Finds the documented path template a concrete path matches, e.g. `/insurance/car/quotes/{quote_id}`. */
const templateOf = (document: OpenApiDocument, path: string): string | undefined =>
  Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`).test(path)
  )

const pointer = (...parts: Array<string>) =>
  parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")

/** Validates answers against the served OpenAPI document with ajv (a JSON Schema validator). */
export class Conformance {
  private readonly ajv = new Ajv({ strict: false, allErrors: true })

  constructor(readonly document: OpenApiDocument) {
    addFormats.default(this.ajv)
    this.ajv.addSchema({ ...document, $id: "openapi.json" })
  }

  /** The schema reference an answer must satisfy, or a reason it has none. */
  private schemaFor(method: string, path: string, status: number, contentType: string): string | Error {
    const mediaType = contentType.split(";")[0]!.trim()
    const template = templateOf(this.document, path)
    const response =
      template === undefined
        ? undefined
        : this.document.paths[template]?.[method.toLowerCase()]?.responses?.[String(status)]
    // a documented answer without a body (304 Not Modified) has no schema: the answer must have no body either
    if (response !== undefined && response.content === undefined) return "no body"
    if (response?.content?.[mediaType] !== undefined) {
      return `openapi.json#/${pointer("paths", template!, method.toLowerCase(), "responses", String(status), "content", mediaType, "schema")}`
    }
    // answers every route may give (unknown path, wrong method) are problems
    if (status >= 400 && mediaType === "application/problem+json") {
      return `openapi.json#/components/schemas/${status === 400 ? "ConstraintViolationProblem" : "Problem"}`
    }
    return new Error(`no documented answer for ${method} ${path} → ${status} ${mediaType}`)
  }

  /** Throws when the answer is not what the document says. */
  check(method: string, path: string, answer: Answer): void {
    const schema = this.schemaFor(method, path, answer.status, answer.headers.get("content-type") ?? "")
    if (schema instanceof Error) throw schema
    if (schema === "no body") {
      if (answer.text !== "")
        throw new Error(`${method} ${path} → ${answer.status} has a body its document does not give it`)
      return
    }
    if (!(answer.headers.get("content-type") ?? "").includes("json")) return
    const validate = this.ajv.getSchema(schema) ?? this.ajv.compile({ $ref: schema })
    if (!validate(answer.body)) {
      throw new Error(
        `${method} ${path} → ${answer.status} does not conform: ${JSON.stringify(validate.errors)}\n${answer.text.slice(0, 500)}`
      )
    }
  }
}

/** An HTTP client that checks each answer against the document and records what it checked. */
export const makeClient = async (baseUrl: string) => {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as OpenApiDocument
  const conformance = new Conformance(document)
  const checked: Array<string> = []
  const request = async (
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {}
  ): Promise<Answer> => {
    const headers: Record<string, string> = {
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers
    }
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.rawBody !== undefined
        ? { body: options.rawBody }
        : options.body !== undefined
          ? { body: JSON.stringify(options.body) }
          : {})
    })
    const text = await response.text()
    const isJson = (response.headers.get("content-type") ?? "").includes("json")
    const answer: Answer = {
      status: response.status,
      headers: response.headers,
      text,
      body: isJson && text !== "" ? JSON.parse(text) : text
    }
    if (method !== "HEAD") conformance.check(method, path, answer)
    checked.push(`${method} ${path} ${answer.status}`)
    return answer
  }
  return { request, document, checked }
}
