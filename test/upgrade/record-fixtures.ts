/**
 * Records an upgrade fixture (UpgradeFixture.ts): what this checkout's kasko writes — partners (one suspended),
 * subscription keys (one revoked), quotes of both shipped products in both variants, awaiting activation and
 * activated, one created with an Idempotency-Key, webhook subscriptions (one disabled by its endpoint's 410) and
 * the deliveries of their events (delivered, dead-lettered, one waiting for its retry) — once on SQLite, once on
 * PostgreSQL, and what every read answers then.
 *
 * Run it by hand, never in the suites, when a release is made (the fixture is what the next release must open):
 *
 *   npx --yes pnpm@10 run build && node test/dist/upgrade/record-fixtures.js <folder name, e.g. 0.1.0>
 *
 * from the repository's root, with kasko's code (packages/, adapters/) committed: the fixture's record names the
 * commit that wrote it. It needs `pg_dump` and a PostgreSQL server at KASKO_RECORDING_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), where it makes and drops the database kasko_fixture_recording.
 * Partners and keys are made by the `kasko` command; quotes and webhooks through the service, in this process,
 * its clock starting at RECORDED_AT.
 */
import { EventOutbox, Examples } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { SqliteStores } from "@kasko/sqlite"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import pg from "pg"
import {
  type Answers,
  FIXTURE_FILES,
  FIXTURE_SCHEMA,
  FIXTURES,
  type FixtureKey,
  type FixtureQuote,
  type FixtureStores,
  type HttpAnswer,
  kasko,
  RECORDED_AT,
  type Recording,
  readAnswers,
  request,
  ROOT,
  serviceAt,
  tokenFor
} from "./UpgradeFixture.js"

const name = process.argv[2]
if (name === undefined || !/^[\w.-]+$/.test(name)) {
  process.stderr.write("usage: node test/dist/upgrade/record-fixtures.js <fixture folder name>\n")
  process.exit(2)
}

const git = (...args: Array<string>) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim()
const changedCode = git("status", "--porcelain", "--", "packages", "adapters", "pnpm-lock.yaml")
if (changedCode !== "") {
  process.stderr.write(
    `kasko's code has uncommitted changes; commit them first, the fixture names its commit:\n${changedCode}\n`
  )
  process.exit(1)
}
const recordedBy = {
  commit: git("rev-parse", "HEAD"),
  code_commit: git("log", "-1", "--format=%H", "--", "packages", "adapters", "pnpm-lock.yaml")
}

// the partners: one with a key revoked beside its active one, one with two active keys (a rotation under way),
// one suspended once its quote and webhook are there
const PARTNERS = [
  { partner_id: "bilhuset-oest", name: "Bilhuset Øst A/S", cvr: "12345690" },
  { partner_id: "leasing-nord", name: "Leasing Nord ApS" },
  { partner_id: "lukket-forhandler", name: "Lukket Forhandler A/S", cvr: "12345674" }
] as const

const EXTENDED = { policy_holder: "organization", vehicle_user: "person", vehicle_usage: "privat_person_koersel" }
const EXTENDED_BUSINESS = { policy_holder: "person", vehicle_user: "organization", vehicle_usage: "godstransport" }

interface PlannedQuote {
  readonly partner_id: string
  readonly product_name: "insurance-car-leasing" | "insurance-car-standalone"
  readonly variant: "standard" | "extended"
  readonly parameters: Record<string, string>
  readonly feature: "standard" | "premium"
  /** Whether it is activated: at once, or last of all (its event the one delivery left waiting for a retry). */
  readonly activate: boolean | "last"
  readonly idempotency_key?: string
}

const QUOTES: ReadonlyArray<PlannedQuote> = [
  {
    partner_id: "bilhuset-oest",
    product_name: "insurance-car-leasing",
    variant: "standard",
    parameters: {},
    feature: "standard",
    activate: false,
    idempotency_key: "lease-2026-0042-first-try"
  },
  {
    partner_id: "bilhuset-oest",
    product_name: "insurance-car-leasing",
    variant: "standard",
    parameters: { payments_per_year: "12", vehicle_price: "300001" },
    feature: "premium",
    activate: true
  },
  {
    partner_id: "bilhuset-oest",
    product_name: "insurance-car-leasing",
    variant: "extended",
    parameters: EXTENDED,
    feature: "standard",
    activate: false
  },
  {
    partner_id: "bilhuset-oest",
    product_name: "insurance-car-leasing",
    variant: "extended",
    parameters: { ...EXTENDED_BUSINESS, payments_per_year: "12", vehicle_type: "varevogn" },
    feature: "premium",
    activate: true
  },
  {
    partner_id: "leasing-nord",
    product_name: "insurance-car-standalone",
    variant: "standard",
    parameters: { payments_per_year: "12", vehicle_price: "185000" },
    feature: "standard",
    activate: false
  },
  {
    partner_id: "leasing-nord",
    product_name: "insurance-car-standalone",
    variant: "standard",
    parameters: { vehicle_price: "749990" },
    feature: "premium",
    activate: "last"
  },
  {
    partner_id: "leasing-nord",
    product_name: "insurance-car-standalone",
    variant: "extended",
    parameters: EXTENDED_BUSINESS,
    feature: "standard",
    activate: false
  },
  {
    partner_id: "bilhuset-oest",
    product_name: "insurance-car-standalone",
    variant: "extended",
    parameters: { ...EXTENDED, payments_per_year: "12" },
    feature: "premium",
    activate: true
  },
  {
    partner_id: "lukket-forhandler",
    product_name: "insurance-car-leasing",
    variant: "extended",
    parameters: EXTENDED,
    feature: "standard",
    activate: true
  }
]

// the endpoints: the receiver's paths, and what each answers
const SUBSCRIPTIONS = [
  {
    partner_id: "bilhuset-oest",
    path: "/bilhuset",
    event_types: ["quote.created", "quote.activated", "quote.expired"]
  },
  // answers 410 Gone: its first delivery disables it and is dead-lettered
  { partner_id: "bilhuset-oest", path: "/gone", event_types: ["quote.activated"] },
  { partner_id: "leasing-nord", path: "/leasing-nord", event_types: ["quote.created"] },
  { partner_id: "lukket-forhandler", path: "/lukket", event_types: ["quote.created", "quote.activated"] }
] as const

// subscribed once the others' deliveries are made; answers 503 with Retry-After: an hour: its one delivery stays
// pending, its next attempt due when the suites read the fixture (which send none)
const RETRYING = { partner_id: "leasing-nord", path: "/busy", event_types: ["quote.activated"] } as const

/** A webhook receiver on a free port of 127.0.0.1: 410 at /gone, 503 (try again in an hour) at /busy, 204 elsewhere. */
const startReceiver = () =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = createServer((incoming, answer) => {
      incoming.resume()
      incoming.on("end", () => {
        answer.statusCode = incoming.url === "/gone" ? 410 : incoming.url === RETRYING.path ? 503 : 204
        if (incoming.url === RETRYING.path) answer.setHeader("retry-after", "3600")
        answer.end()
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
    )
  })

const pause = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

const outboxRead = <A>(
  stores: FixtureStores,
  read: (outbox: EventOutbox.EventOutbox["Service"]) => Effect.Effect<A, unknown>
) =>
  Effect.runPromise(
    Effect.flatMap(EventOutbox.EventOutbox, read).pipe(Effect.provide(stores)) as Effect.Effect<A, unknown>
  )

/** Waits until every event is delivered or dead-lettered (the backlog is empty). */
const deliveriesSettled = async (stores: FixtureStores) => {
  for (;;) {
    const backlog = await outboxRead(stores, (outbox) => outbox.backlog)
    if (backlog.pending_deliveries === 0 && backlog.oldest_undelivered_at === undefined) return
    await pause(100)
  }
}

/** Waits until the retrying endpoint's one delivery was attempted, and is all that is left pending. */
const retryScheduled = async (stores: FixtureStores) => {
  for (;;) {
    const deliveries = await outboxRead(stores, (outbox) =>
      outbox.deliveriesOf(RETRYING.partner_id, { limit: 1000, deadLetteredOnly: false })
    )
    const retrying = deliveries.filter((delivery) => delivery.url.endsWith(RETRYING.path))
    const backlog = await outboxRead(stores, (outbox) => outbox.backlog)
    if (retrying.length === 1 && retrying[0]!.attempts === 1 && backlog.pending_deliveries === 1) return
    await pause(100)
  }
}

const expectStatus = (what: string, answer: HttpAnswer, status: number) => {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`)
}

/** Writes the cast into the database `environment` names, and reads it all back. */
const recordOn = async (
  environment: Record<string, string> & { KASKO_DATA_DIR: string },
  stores: FixtureStores
): Promise<Omit<Recording, "recorded_by">> => {
  const keys: Array<FixtureKey> = []
  for (const partner of PARTNERS) {
    const added = JSON.parse(
      await kasko(
        environment,
        "partners",
        "add",
        "--id",
        partner.partner_id,
        "--name",
        partner.name,
        ...("cvr" in partner ? ["--cvr", partner.cvr] : []),
        "--json"
      )
    )
    keys.push({
      partner_id: partner.partner_id,
      subscription_key: added.subscription_key,
      state: partner.partner_id === "lukket-forhandler" ? "partner suspended" : "active"
    })
  }
  const addKey = async (partnerId: string) =>
    JSON.parse(await kasko(environment, "keys", "add", "--partner", partnerId, "--json")).subscription_key as string
  const revoked = await addKey("bilhuset-oest")
  keys.push({ partner_id: "leasing-nord", subscription_key: await addKey("leasing-nord"), state: "active" })

  const receiver = await startReceiver()
  const service = await serviceAt(
    RECORDED_AT,
    { ...environment, KASKO_WEBHOOKS_ALLOW_INSECURE: "true" },
    { dispatchWebhooks: true }
  )
  try {
    const credentials = new Map<string, { token: string; key: string }>()
    for (const partner of PARTNERS)
      credentials.set(partner.partner_id, {
        token: await tokenFor(environment.KASKO_DATA_DIR, partner.partner_id),
        key: keys.find((key) => key.partner_id === partner.partner_id)!.subscription_key
      })
    const as = (partnerId: string) => credentials.get(partnerId)!

    for (const subscription of SUBSCRIPTIONS) {
      const answer = await request(service, as(subscription.partner_id), "POST", "/webhooks/subscriptions", {
        body: { url: `${receiver.url}${subscription.path}`, event_types: subscription.event_types }
      })
      expectStatus(`subscribing ${subscription.path}`, answer, 200)
    }

    const quotes: Array<FixtureQuote> = []
    let idempotentCreation: Recording["idempotent_creation"] | undefined
    for (const planned of QUOTES) {
      const body = Examples.quoteRequest(
        Examples.standardParameters(planned.parameters),
        planned.product_name,
        planned.feature
      )
      const headers = planned.idempotency_key === undefined ? {} : { "idempotency-key": planned.idempotency_key }
      const created = await request(service, as(planned.partner_id), "POST", "/insurance/car/quotes", { body, headers })
      expectStatus(`creating a ${planned.product_name} quote`, created, 200)
      const quoteId = (created.body as { quote_id: string }).quote_id
      if (planned.idempotency_key !== undefined) {
        const repeated = await request(service, as(planned.partner_id), "POST", "/insurance/car/quotes", {
          body,
          headers
        })
        if ((repeated.body as { quote_id: string }).quote_id !== quoteId)
          throw new Error("a repeated request with its Idempotency-Key made another quote")
        idempotentCreation = {
          partner_id: planned.partner_id,
          idempotency_key: planned.idempotency_key,
          request: body,
          answer: repeated
        }
      }
      if (planned.activate === true) {
        const activated = await request(
          service,
          as(planned.partner_id),
          "POST",
          `/insurance/car/quotes/${quoteId}/activation`
        )
        expectStatus("activating", activated, 200)
      }
      const retrieved = await request(service, as(planned.partner_id), "GET", `/insurance/car/quotes/${quoteId}`)
      if (!JSON.stringify(retrieved.body).includes(`/variants/${planned.variant}/ipid`))
        throw new Error(`quote ${quoteId} is not of the ${planned.variant} variant planned`)
      quotes.push({
        partner_id: planned.partner_id,
        quote_id: quoteId,
        product_name: planned.product_name,
        variant: planned.variant,
        state: planned.activate === false ? "await_activation" : "activated"
      })
    }
    await deliveriesSettled(stores)
    const subscribed = await request(service, as(RETRYING.partner_id), "POST", "/webhooks/subscriptions", {
      body: { url: `${receiver.url}${RETRYING.path}`, event_types: RETRYING.event_types }
    })
    expectStatus(`subscribing ${RETRYING.path}`, subscribed, 200)
    for (const [index, planned] of QUOTES.entries())
      if (planned.activate === "last") {
        const activated = await request(
          service,
          as(planned.partner_id),
          "POST",
          `/insurance/car/quotes/${quotes[index]!.quote_id}/activation`
        )
        expectStatus("activating", activated, 200)
      }
    await retryScheduled(stores)

    await kasko(environment, "keys", "revoke", "--partner", "bilhuset-oest", "--key-prefix", revoked.split("_")[1]!)
    keys.push({ partner_id: "bilhuset-oest", subscription_key: revoked, state: "revoked" })
    await kasko(environment, "partners", "suspend", "--id", "lukket-forhandler")

    const answers: Answers = await readAnswers({ service, stores, environment, keys, quotes })
    return { keys, quotes, idempotent_creation: idempotentCreation!, answers }
  } finally {
    await service.stop()
    receiver.server.close()
  }
}

const writeGzipped = (file: string, content: Buffer | string) => {
  writeFileSync(file, gzipSync(content, { level: 9 }))
  process.stdout.write(`${file}: ${statSync(file).size} bytes\n`)
}

const folder = join(FIXTURES, name)
mkdirSync(folder, { recursive: true })
const scratch = mkdtempSync(join(tmpdir(), "kasko-fixture-"))

// SQLite: the data directory's kasko.db, as the service and the command leave it (the WAL checkpointed at close)
{
  const dataDirectory = join(scratch, "sqlite")
  const environment = { KASKO_DATA_DIR: dataDirectory }
  const database = join(dataDirectory, "kasko.db")
  const recording = await recordOn(environment, SqliteStores.layer({ filename: database }))
  if (existsSync(`${database}-wal`) && statSync(`${database}-wal`).size > 0)
    throw new Error("the database's WAL was not checkpointed into it")
  writeGzipped(join(folder, FIXTURE_FILES.sqliteDatabase), readFileSync(database))
  writeGzipped(
    join(folder, FIXTURE_FILES.sqliteAnswers),
    `${JSON.stringify({ recorded_by: recordedBy, ...recording }, null, 2)}\n`
  )
}

// PostgreSQL: the schema kasko writes, dumped as plain SQL
{
  const server = process.env["KASKO_RECORDING_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
  const database = "kasko_fixture_recording"
  const admin = new pg.Client({ connectionString: server })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${database}`)
  const url = new URL(server)
  url.pathname = `/${database}`
  const environment = {
    KASKO_DATA_DIR: join(scratch, "postgres"),
    KASKO_DATABASE_URL: url.toString(),
    KASKO_DATABASE_SCHEMA: FIXTURE_SCHEMA
  }
  try {
    const recording = await recordOn(
      environment,
      PostgresStores.layer({ connectionString: url.toString(), schema: FIXTURE_SCHEMA, poolSize: 2 })
    )
    const dump = execFileSync(
      "pg_dump",
      [`--dbname=${url}`, `--schema=${FIXTURE_SCHEMA}`, "--no-owner", "--no-privileges", "--inserts"],
      { encoding: "utf8" }
    )
    writeGzipped(join(folder, FIXTURE_FILES.postgresDump), dump)
    writeGzipped(
      join(folder, FIXTURE_FILES.postgresAnswers),
      `${JSON.stringify({ recorded_by: recordedBy, ...recording }, null, 2)}\n`
    )
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await admin.end()
  }
}

rmSync(scratch, { recursive: true, force: true })
process.stdout.write(`recorded ${folder} at ${recordedBy.commit} (kasko's code as of ${recordedBy.code_commit})\n`)
