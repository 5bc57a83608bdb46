/**
 * What "upgrades keep data" (issue 45) holds a release to: a database written by the release before opens under
 * this code, migrates, and answers every read as the release before answered it. A fixture is a folder of
 * `fixtures/`: the SQLite database and the PostgreSQL dump that release wrote (record-fixtures.ts made them, by
 * hand), and beside each what the reads below answered then. The suites (SqliteUpgrade.test.ts,
 * test/postgres/PostgresUpgrade.test.ts) run the same reads on the upgraded copy and compare.
 */
import { EventOutbox, PartnerStore, QuoteStore, WebhookSubscriptions } from "@kasko/core"
import { SigningKey, SubscriptionKeys, Tokens } from "@kasko/credentials"
import { makeAdjustableClock, readServiceConfig, type RunningService, startService } from "@kasko/server"
import { Effect, type Layer, Option, Result } from "effect"
import { execFile } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { gunzipSync } from "node:zlib"
import { pino } from "pino"

/** The repository's root, from this file's source (test/upgrade) or its build (test/dist/upgrade). */
export const ROOT = ((): string => {
  for (let directory = import.meta.dirname; ; directory = dirname(directory)) {
    if (existsSync(join(directory, "pnpm-workspace.yaml"))) return directory
    if (dirname(directory) === directory) throw new Error(`no repository root above ${import.meta.dirname}`)
  }
})()

/** Where the fixtures are, one folder per release that wrote them. */
export const FIXTURES = join(ROOT, "test", "upgrade", "fixtures")

/** The fixture folders, by name. */
export const fixtureNames = (): ReadonlyArray<string> =>
  readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()

/** The files of a fixture folder. */
export const FIXTURE_FILES = {
  /** The SQLite database, `kasko.db` of KASKO_DATA_DIR, gzipped. */
  sqliteDatabase: "kasko.db.gz",
  /** What the reads answered on the SQLite database. */
  sqliteAnswers: "sqlite-answers.json.gz",
  /** `pg_dump --schema=kasko` of the same data on PostgreSQL, plain SQL, gzipped. */
  postgresDump: "kasko.sql.gz",
  /** What the reads answered on PostgreSQL. */
  postgresAnswers: "postgres-answers.json.gz"
} as const

/** The PostgreSQL schema a fixture's dump holds kasko's tables in (KASKO_DATABASE_SCHEMA). */
export const FIXTURE_SCHEMA = "kasko"

/** Where the recording's service clock starts: quotes, events and deliveries carry times from this instant on. */
export const RECORDED_AT = Date.parse("2026-03-02T09:00:00.000Z")

/**
 * When the suites read a fixture: an hour after its recording, the recording's few seconds long past and every
 * quote (30 days) and Idempotency-Key (24 hours) still valid, the clock a service reads at no other time.
 */
export const READ_AT = RECORDED_AT + 60 * 60 * 1000

/** The service's environment while recording and reading: quotes' document links name this, not a port. */
export const SERVICE_ENVIRONMENT = {
  HOST: "127.0.0.1",
  PORT: "0",
  KASKO_PUBLIC_URL: "https://api.forsikring.example"
} as const

/** A subscription key of the fixture: a test key, made by `kasko partners add`/`keys add` for the fixture only. */
export interface FixtureKey {
  readonly partner_id: string
  readonly subscription_key: string
  /** What the recording made of it. */
  readonly state: "active" | "revoked" | "partner suspended"
}

/** A quote of the fixture, by its partner. */
export interface FixtureQuote {
  readonly partner_id: string
  readonly quote_id: string
  readonly product_name: string
  readonly variant: string
  readonly state: "await_activation" | "activated"
}

/** A request's answer as the reads compare it: its status and its JSON body. */
export interface HttpAnswer {
  readonly status: number
  readonly body: unknown
}

/** What every read answered. */
export interface Answers {
  /** `kasko partners list --json`. */
  readonly partners: unknown
  /** Each partner's subscription keys as the store keeps them: prefix, SHA-256 of the key, created, revoked. */
  readonly subscription_keys: Readonly<Record<string, unknown>>
  /** What a request with each fixture key answers (GET /webhooks/subscriptions, its partner's token): 200 or 401. */
  readonly key_checks: Readonly<Record<string, number>>
  /**
   * Each quote: GET /insurance/car/quotes/{quote_id} by its partner (none for a suspended partner's, which no
   * request reaches), the stored quote (worksheet and all), and its events in the outbox.
   */
  readonly quotes: Readonly<
    Record<string, { readonly retrieved?: HttpAnswer; readonly stored: unknown; readonly events: unknown }>
  >
  /** GET /webhooks/subscriptions of each active partner. */
  readonly webhook_subscriptions: Readonly<Record<string, HttpAnswer>>
  /** Each partner's subscriptions as the store keeps them, the signing secret as its SHA-256. */
  readonly stored_webhook_subscriptions: Readonly<Record<string, unknown>>
  /** GET /webhooks/deliveries of each active partner (those made at one instant by id: `inListingOrder`). */
  readonly webhook_deliveries: Readonly<Record<string, HttpAnswer>>
  /** Each partner's deliveries as the store lists them (a suspended partner's too; in `inListingOrder`). */
  readonly stored_webhook_deliveries: Readonly<Record<string, unknown>>
}

/** A fixture's record: what made it, its test keys and quotes, and what the reads answered. */
export interface Recording {
  /** The commit the recording ran at, and the last commit before it that changed kasko's code (packages, adapters). */
  readonly recorded_by: { readonly commit: string; readonly code_commit: string }
  readonly keys: ReadonlyArray<FixtureKey>
  readonly quotes: ReadonlyArray<FixtureQuote>
  /** A quote created with an Idempotency-Key, and what repeating that request answered: the same quote. */
  readonly idempotent_creation: {
    readonly partner_id: string
    readonly idempotency_key: string
    readonly request: unknown
    readonly answer: HttpAnswer
  }
  readonly answers: Answers
}

/** A fixture's record, read from its gzipped JSON. */
export const readRecording = (file: string): Recording =>
  JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as Recording

/** The stores a suite reads the fixture's database with. */
export type FixtureStores = Layer.Layer<
  | QuoteStore.QuoteStore
  | PartnerStore.PartnerStore
  | EventOutbox.EventOutbox
  | WebhookSubscriptions.WebhookSubscriptions,
  unknown
>

/** The `kasko` command of this checkout. */
export const BIN = join(ROOT, "packages", "server", "bin", "kasko.mjs")

/** Runs the `kasko` command of this checkout (its build) with the environment given; answers its standard output. */
export const kasko = async (environment: Record<string, string>, ...args: Array<string>): Promise<string> =>
  (await promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...process.env, ...environment } })).stdout

/**
 * The service on the database `environment` names (KASKO_DATA_DIR, KASKO_DATABASE_URL…), in this process so that
 * its clock can start at `startsAt` and run on from there; its log silent.
 */
export const serviceAt = async (
  startsAt: number,
  environment: Record<string, string>,
  options: { readonly dispatchWebhooks: boolean }
): Promise<RunningService> => {
  const config = Result.getOrThrowWith(
    readServiceConfig({ ...SERVICE_ENVIRONMENT, ...environment }),
    (message) => new Error(message)
  )
  const clock = makeAdjustableClock()
  clock.adjust(startsAt - Date.now())
  return startService({
    config,
    clock: clock.clock,
    logger: pino({ level: "silent" }),
    dispatchWebhooks: options.dispatchWebhooks
  })
}

/** Every scope: the reads need quotes:read and webhooks:manage, the recording the rest. */
export const ALL_SCOPES = [
  "products:read",
  "offers:create",
  "quotes:create",
  "quotes:read",
  "quotes:activate",
  "webhooks:manage"
] as const

/**
 * A token for `partnerId`, signed with the data directory's key pair as `kasko tokens issue` signs it — for a
 * suspended partner too, which that command refuses: a token issued before the suspension, still unexpired.
 */
export const tokenFor = async (dataDirectory: string, partnerId: string): Promise<string> =>
  Tokens.issueToken(await SigningKey.loadOrCreateSigningKey(dataDirectory), {
    issuer: "kasko",
    audience: "kasko-partner-api",
    partnerId,
    scopes: ALL_SCOPES,
    ttlSeconds: 3600
  })

/** Sends a request as `key`'s partner; answers its status and JSON body. */
export const request = async (
  service: { readonly url: string },
  credentials: { readonly token: string; readonly key: string },
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}
): Promise<HttpAnswer> => {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${credentials.token}`,
      "ocp-apim-subscription-key": credentials.key,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

/** A value as JSON holds it: what a stored record is compared as. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

interface ListedDelivery {
  readonly delivery_id: string
  readonly created_at: string | number
}

/**
 * Deliveries newest first, as kasko lists them, those made at the same instant by delivery id: kasko orders them
 * by their event and leaves the deliveries of one event to two endpoints in the order the database finds them,
 * which on PostgreSQL follows the table's layout on disk — another after a restore.
 */
const inListingOrder = <A extends ListedDelivery>(deliveries: ReadonlyArray<A>): Array<A> =>
  [...deliveries].sort((one, other) =>
    one.created_at === other.created_at
      ? one.delivery_id.localeCompare(other.delivery_id)
      : one.created_at < other.created_at
        ? 1
        : -1
  )

/** A GET /webhooks/deliveries answer, its deliveries in listing order. */
const deliveriesAnswer = (answer: HttpAnswer): HttpAnswer => {
  const body = answer.body as { deliveries?: ReadonlyArray<ListedDelivery> }
  return body?.deliveries === undefined
    ? answer
    : { ...answer, body: { ...body, deliveries: inListingOrder(body.deliveries) } }
}

const sha256 = (text: string): string => SubscriptionKeys.hashOf(text)

/** What the stores answer for the fixture's partners and quotes (read-only). */
const storeReads = (stores: FixtureStores, partnerIds: ReadonlyArray<string>, quotes: ReadonlyArray<FixtureQuote>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const partnerStore = yield* PartnerStore.PartnerStore
      const quoteStore = yield* QuoteStore.QuoteStore
      const outbox = yield* EventOutbox.EventOutbox
      const subscriptions = yield* WebhookSubscriptions.WebhookSubscriptions
      const subscriptionKeys: Record<string, unknown> = {}
      const webhookSubscriptions: Record<string, unknown> = {}
      const webhookDeliveries: Record<string, unknown> = {}
      for (const partnerId of partnerIds) {
        subscriptionKeys[partnerId] = asJson(yield* partnerStore.listSubscriptionKeys(partnerId))
        webhookSubscriptions[partnerId] = asJson(
          (yield* subscriptions.subscriptionsOf(partnerId)).map(({ secret, ...subscription }) => ({
            ...subscription,
            secret_sha256: sha256(secret)
          }))
        )
        webhookDeliveries[partnerId] = asJson(
          inListingOrder(yield* outbox.deliveriesOf(partnerId, { limit: 1000, deadLetteredOnly: false }))
        )
      }
      const stored: Record<string, { stored: unknown; events: unknown }> = {}
      for (const quote of quotes) {
        const found = yield* quoteStore.find(quote.partner_id, quote.quote_id)
        stored[quote.quote_id] = {
          stored: Option.isSome(found) ? asJson(found.value) : null,
          events: asJson(yield* outbox.eventsOfQuote(quote.quote_id))
        }
      }
      return { subscriptionKeys, webhookSubscriptions, webhookDeliveries, stored }
    }).pipe(Effect.provide(stores)) as Effect.Effect<
      {
        subscriptionKeys: Record<string, unknown>
        webhookSubscriptions: Record<string, unknown>
        webhookDeliveries: Record<string, unknown>
        stored: Record<string, { stored: unknown; events: unknown }>
      },
      unknown
    >
  )

/**
 * Every read of the fixture's data, on the running `service` and the `stores` of its database: the partners
 * (`kasko partners list`), their keys (stored, and whether each authenticates), each quote (as retrieved, as
 * stored, its events), each partner's webhook subscriptions and their deliveries (as listed, as stored).
 * Reads only: what the recording answered is what the suites compare with.
 */
export const readAnswers = async (options: {
  readonly service: { readonly url: string }
  readonly stores: FixtureStores
  /** KASKO_DATA_DIR (its signing key signs the tokens), and KASKO_DATABASE_URL/SCHEMA on PostgreSQL. */
  readonly environment: Record<string, string> & { readonly KASKO_DATA_DIR: string }
  readonly keys: ReadonlyArray<FixtureKey>
  readonly quotes: ReadonlyArray<FixtureQuote>
}): Promise<Answers> => {
  const partnerIds = [...new Set(options.keys.map((key) => key.partner_id))].sort()
  const tokens = new Map<string, string>()
  for (const partnerId of partnerIds)
    tokens.set(partnerId, await tokenFor(options.environment.KASKO_DATA_DIR, partnerId))
  const activeKey = (partnerId: string) =>
    options.keys.find((key) => key.partner_id === partnerId && key.state === "active")
  const as = (partnerId: string) => ({
    token: tokens.get(partnerId)!,
    key: activeKey(partnerId)!.subscription_key
  })
  const activePartners = partnerIds.filter((partnerId) => activeKey(partnerId) !== undefined)

  const key_checks: Record<string, number> = {}
  for (const key of options.keys) {
    const answer = await request(
      options.service,
      { token: tokens.get(key.partner_id)!, key: key.subscription_key },
      "GET",
      "/webhooks/subscriptions"
    )
    key_checks[SubscriptionKeys.prefixOf(key.subscription_key)!] = answer.status
  }
  const webhook_subscriptions: Record<string, HttpAnswer> = {}
  const webhook_deliveries: Record<string, HttpAnswer> = {}
  for (const partnerId of activePartners) {
    webhook_subscriptions[partnerId] = await request(options.service, as(partnerId), "GET", "/webhooks/subscriptions")
    webhook_deliveries[partnerId] = deliveriesAnswer(
      await request(options.service, as(partnerId), "GET", "/webhooks/deliveries")
    )
  }
  const partners = JSON.parse(await kasko(options.environment, "partners", "list", "--json"))
  const fromStores = await storeReads(options.stores, partnerIds, options.quotes)
  const quotes: Record<string, { retrieved?: HttpAnswer; stored: unknown; events: unknown }> = {}
  for (const quote of options.quotes) {
    quotes[quote.quote_id] = {
      ...(activeKey(quote.partner_id) === undefined
        ? {}
        : {
            retrieved: await request(
              options.service,
              as(quote.partner_id),
              "GET",
              `/insurance/car/quotes/${quote.quote_id}`
            )
          }),
      ...fromStores.stored[quote.quote_id]!
    }
  }
  return {
    partners,
    subscription_keys: fromStores.subscriptionKeys,
    key_checks,
    quotes,
    webhook_subscriptions,
    stored_webhook_subscriptions: fromStores.webhookSubscriptions,
    webhook_deliveries,
    stored_webhook_deliveries: fromStores.webhookDeliveries
  }
}
