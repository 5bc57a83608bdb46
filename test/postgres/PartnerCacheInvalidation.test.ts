/**
 * Authentication remembers a subscription key that checked out, on PostgreSQL
 * too: each instance's store LISTENs for the notifications that triggers on
 * partners and subscription_keys send, so a key revoked or a partner suspended
 * — through the `kasko` command or plain SQL — is refused by every instance
 * once it hears of it (how soon, no test times), while repeated requests read
 * neither table.
 * While an instance's listener is away, it remembers nothing; when the listener
 * is back, it forgets what it remembered before (what changed meanwhile was not
 * told) and remembers again.
 */
import { Examples, PartnerStore } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { Effect, ManagedRuntime } from "effect"
import { setImmediate as nextTurn } from "node:timers/promises"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { openConnectionGate } from "./ConnectionGate.js"
import { scratchSchema } from "@kasko/store-contracts/postgres"
import { twoInstancesOnOneSchema } from "./ServiceInstances.js"
import { testDatabaseUrl } from "./TestDatabase.js"

// the instances reach the database through the gate, which can keep their listeners out
const gate = await openConnectionGate(testDatabaseUrl)
afterAll(() => gate.close())

const PARTNER = "cache-partner"
const { schema, call, kasko, database, instances } = twoInstancesOnOneSchema("kasko_partner_cache", PARTNER, gate.url)
const LISTENER = `kasko:${schema}:changes`
// the instances' pooled connections, on which their lookups of partners and keys run
const POOL = `kasko:${schema}`

const storeSchemas = [scratchSchema("kasko_changes_a"), scratchSchema("kasko_changes_b")]

/** The partner's quote that requests read, created once. */
let quotePath: string | undefined
const aQuotePath = async () => {
  if (quotePath === undefined) {
    const created = await call(0, "POST", "/insurance/car/quotes", Examples.quoteRequest())
    expect(created.status).toBe(200)
    quotePath = `/insurance/car/quotes/${created.body.quote_id}`
  }
  return quotePath
}

/** A new subscription key of the partner. */
const addKey = async (): Promise<string> =>
  JSON.parse(await kasko("keys", "add", "--partner", PARTNER, "--json")).subscription_key

// ksk_<12 hex digits>_<secret>
const prefixOf = (key: string) => key.slice(4, 16)

/** The status each instance answers to the quote's GET, with the partner's credentials but `extra`. */
const statuses = async (extra: Record<string, string> = {}) => {
  const path = await aQuotePath()
  return Promise.all([0, 1].map(async (instance) => (await call(instance, "GET", path, undefined, extra)).status))
}

const withKey = (key: string) => ({ "ocp-apim-subscription-key": key })

/**
 * Until `condition` holds, asked again and again: for what only the database or an instance's answers show.
 * No give-up but the test's own time: each condition here comes about in milliseconds, or never when broken.
 */
const until = async (condition: () => Promise<boolean>) => {
  while (!(await condition())) await nextTurn()
}

/** Whether an instance's lookup waits for a lock on the partner tables: what a lookup does while they are locked. */
const lookupWaitsForLock = async () =>
  Number(
    (
      await database().query(
        "SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [POOL]
      )
    ).rows[0].count
  ) > 0

/** "waiting" once the request is seen waiting for the lock on the partner tables, "answered" if it answers first. */
const waitsForLock = (request: Promise<unknown>) =>
  Promise.race([request.then(() => "answered" as const), until(lookupWaitsForLock).then(() => "waiting" as const)])

/**
 * Runs `work` while another transaction holds the partner tables locked: a
 * lookup in them waits until `work` is done, an answer from memory does not.
 */
const withPartnerTablesLocked = async <A>(work: () => Promise<A>): Promise<A> => {
  const locker = new pg.Client({ connectionString: testDatabaseUrl })
  await locker.connect()
  try {
    await locker.query("BEGIN")
    await locker.query(`LOCK TABLE ${schema}.partners, ${schema}.subscription_keys IN ACCESS EXCLUSIVE MODE`)
    return await work()
  } finally {
    await locker.query("ROLLBACK")
    await locker.end()
  }
}

/**
 * The listeners that listen: a heartbeat (`SELECT 1`) runs on a listener's connection only once its instance
 * has heard LISTEN's answer and remembers again (PartnerChanges.ts), so the server showing one proves that.
 */
const listenersListening = async () =>
  Number(
    (
      await database().query(
        "SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1 AND query = 'SELECT 1'",
        [LISTENER]
      )
    ).rows[0].count
  )

/**
 * What `change` answers, once both instances have heard the notification of the change it makes, as the gate saw
 * it pass to their listeners. An instance reads its listener's socket no later than a request sent after that:
 * one round of requests to both makes sure.
 */
const heardByBoth = async <A>(change: () => Promise<A>): Promise<A> => {
  const told = gate.arrived(LISTENER, schema, 2)
  const done = await change()
  await told
  await statuses()
  return done
}

/** Until both instances' listeners are connected and LISTENing. */
const bothListening = () => until(async () => (await listenersListening()) === 2)

describe("a PostgreSQL store's change value", () => {
  const changesOf = (runtime: ManagedRuntime.ManagedRuntime<PartnerStore.PartnerStore, unknown>) =>
    runtime.runPromise(Effect.flatMap(PartnerStore.PartnerStore, (store) => store.changes))
  /** Whether the value holds still between reads, which it does only while the listener listens. */
  const holdsStill = async (runtime: ManagedRuntime.ManagedRuntime<PartnerStore.PartnerStore, unknown>) => {
    const first = await changesOf(runtime)
    const second = await changesOf(runtime)
    return first === second
  }

  it("moves on plain SQL writes to its schema's partners and keys, not on another schema's, and its listener ends with the store", async () => {
    const [a, b] = storeSchemas.map(({ schema }) =>
      ManagedRuntime.make(PostgresStores.layer({ connectionString: testDatabaseUrl, schema, poolSize: 2 }))
    )
    try {
      await until(() => holdsStill(a!))
      await until(() => holdsStill(b!))
      const admin = storeSchemas[0]!.admin()
      const [schemaA, schemaB] = storeSchemas.map(({ schema }) => schema)

      const aBefore = await changesOf(a!)
      const bBefore = await changesOf(b!)
      await admin.query(`INSERT INTO ${schemaB}.partners VALUES ('partner-b', 'B', NULL, 'active', 1)`)
      await until(async () => (await changesOf(b!)) !== bBefore)
      // b's notification has arrived: a's would have too
      expect(await changesOf(a!)).toBe(aBefore)

      await admin.query(`INSERT INTO ${schemaA}.partners VALUES ('partner-a', 'A', NULL, 'active', 1)`)
      await until(async () => (await changesOf(a!)) !== aBefore)
      const aAfterPartner = await changesOf(a!)
      await admin.query(
        `INSERT INTO ${schemaA}.subscription_keys VALUES ('aaaa00000000', 'partner-a', 'hash', 1, NULL)`
      )
      await until(async () => (await changesOf(a!)) !== aAfterPartner)
    } finally {
      await a!.dispose()
      await b!.dispose()
    }
    const listeners = await storeSchemas[0]!
      .admin()
      .query("SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = ANY ($1)", [
        storeSchemas.map(({ schema }) => `kasko:${schema}:changes`)
      ])
    expect(Number(listeners.rows[0].count)).toBe(0)
  })
})

describe("a PostgreSQL store used for administration only", () => {
  it("opens no listening connection until its change value is first read", async () => {
    const { schema } = storeSchemas[0]!
    const store = ManagedRuntime.make(PostgresStores.layer({ connectionString: testDatabaseUrl, schema, poolSize: 2 }))
    const listeners = async () =>
      Number(
        (
          await storeSchemas[0]!
            .admin()
            .query("SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1", [
              `kasko:${schema}:changes`
            ])
        ).rows[0].count
      )
    try {
      // what `kasko partners add` and `kasko partners list` do
      await store.runPromise(
        Effect.flatMap(PartnerStore.PartnerStore, (partners) =>
          Effect.andThen(
            partners.insertPartner({
              partner_id: "admin-only",
              name: "Admin Only A/S",
              status: "active",
              created_at: 1
            }),
            partners.listPartners
          )
        )
      )
      // its pool's work all done (the partner inserted and listed): nothing had started a listener
      expect(await listeners()).toBe(0)
      await store.runPromise(Effect.flatMap(PartnerStore.PartnerStore, (partners) => partners.changes))
      await until(async () => (await listeners()) === 1)
    } finally {
      await store.dispose()
    }
  })
})

describe("a PostgreSQL store's listener gone silent", () => {
  it("is found out by its heartbeat: the change value moves though no notification came", async () => {
    const { schema } = storeSchemas[1]!
    const store = ManagedRuntime.make(PostgresStores.layer({ connectionString: gate.url, schema, poolSize: 2 }))
    const changesOf = () => store.runPromise(Effect.flatMap(PartnerStore.PartnerStore, (partners) => partners.changes))
    try {
      // the value holds still between two reads only while the listener listens
      await until(async () => {
        const first = await changesOf()
        return first === (await changesOf())
      })
      const before = await changesOf()
      // the listener's connection stays open but carries nothing more: its notifications are lost on the way
      const listener = `kasko:${schema}:changes`
      gate.stall(listener)
      const held = gate.arrived(listener, schema)
      await storeSchemas[1]!
        .admin()
        .query(`INSERT INTO ${schema}.partners VALUES ('partner-silent', 'S', NULL, 'active', 1)`)
      // the notification came as far as the gate, and no further
      await held
      expect(await changesOf()).toBe(before)
      // the heartbeat (every 5 s, answered within 2 s) finds the silence out
      await until(async () => (await changesOf()) !== before)
    } finally {
      await store.dispose()
    }
  }, 30_000)
})

describe("partner lookups remembered by two instances on one PostgreSQL schema", () => {
  it("refuses a key revoked through the kasko command on both instances once they hear of it", async () => {
    const key = await addKey()
    expect(await statuses(withKey(key))).toEqual([200, 200])
    expect(await statuses(withKey(key))).toEqual([200, 200])

    await heardByBoth(() => kasko("keys", "revoke", "--partner", PARTNER, "--key-prefix", prefixOf(key)))
    expect(await statuses(withKey(key))).toEqual([401, 401])
    // the partner's other key is still good
    expect(await statuses()).toEqual([200, 200])
  })

  it("refuses a partner suspended through the kasko command on both instances once they hear of it", async () => {
    const { subscription_key } = JSON.parse(
      await kasko("partners", "add", "--id", "paused-partner", "--name", "Paused Partner A/S", "--json")
    )
    const token = (
      await kasko("tokens", "issue", "--partner", "paused-partner", "--scopes", "quotes:create quotes:read")
    ).trim()
    const credentials = { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": subscription_key }
    const created = await call(0, "POST", "/insurance/car/quotes", Examples.quoteRequest(), credentials)
    expect(created.status).toBe(200)
    const path = `/insurance/car/quotes/${created.body.quote_id}`
    const answers = () => Promise.all([0, 1].map((instance) => call(instance, "GET", path, undefined, credentials)))
    expect((await answers()).map((answer) => answer.status)).toEqual([200, 200])
    expect((await answers()).map((answer) => answer.status)).toEqual([200, 200])

    await heardByBoth(() => kasko("partners", "suspend", "--id", "paused-partner"))
    expect((await answers()).map((answer) => answer.body.detail)).toEqual([
      "The subscription key is not valid for this token.",
      "The subscription key is not valid for this token."
    ])
  })

  it("answers a remembered key without reading partners or keys, and looks up a key it has not seen", async () => {
    const unseen = await heardByBoth(addKey)
    expect(await statuses()).toEqual([200, 200])
    const { unseenAnswer } = await withPartnerTablesLocked(async () => {
      // a lookup would wait for the lock, which is let go only after these: they answer from memory
      for (let request = 0; request < 10; request++) expect(await statuses()).toEqual([200, 200])
      const path = await aQuotePath()
      const looked = call(0, "GET", path, undefined, withKey(unseen))
      expect(await waitsForLock(looked)).toBe("waiting")
      // wrapped: a promise returned from an async function would be waited for, with the lock still held
      return { unseenAnswer: looked }
    })
    expect((await unseenAnswer).status).toBe(200)
  })

  it("remembers nothing while its listener is away, forgets what it remembered when the listener is back, then remembers again", async () => {
    const rememberedBefore = await addKey()
    const usedWhileAway = await addKey()
    const path = await aQuotePath()
    await bothListening()
    expect((await call(1, "GET", path, undefined, withKey(rememberedBefore))).status).toBe(200)

    gate.refuse(LISTENER)
    try {
      const lost = gate.closed(LISTENER, 2)
      const terminated = await database().query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
        [LISTENER]
      )
      expect(terminated.rowCount).toBe(2)
      // the gate closed their connections: the instances read the loss from their sockets no later than the
      // requests sent after it
      await lost

      expect((await call(0, "GET", path, undefined, withKey(usedWhileAway))).status).toBe(200)
      expect((await call(0, "GET", path, undefined, withKey(usedWhileAway))).status).toBe(200)
      const { lookedUp } = await withPartnerTablesLocked(async () => {
        const looked = call(0, "GET", path, undefined, withKey(usedWhileAway))
        expect(await waitsForLock(looked)).toBe("waiting")
        return { lookedUp: looked }
      })
      expect((await lookedUp).status).toBe(200)

      // revoked behind the instances' back: nobody hears the notification
      const revoke = (key: string) =>
        database().query(`UPDATE ${schema}.subscription_keys SET revoked_at = 1 WHERE key_prefix = $1`, [prefixOf(key)])
      await revoke(usedWhileAway)
      expect((await call(0, "GET", path, undefined, withKey(usedWhileAway))).status).toBe(401)
      await revoke(rememberedBefore)
    } finally {
      gate.admit()
    }

    await bothListening()
    // instance 1 remembered the key from before its listener went, and was asked nothing since
    expect((await call(1, "GET", path, undefined, withKey(rememberedBefore))).status).toBe(401)

    expect(await statuses()).toEqual([200, 200])
    await withPartnerTablesLocked(async () => {
      expect(await statuses()).toEqual([200, 200])
    })
    expect(instances().map((instance) => instance.ended)).toEqual([undefined, undefined])
  })
})
