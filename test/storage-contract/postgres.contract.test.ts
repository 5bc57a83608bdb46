/**
 * The storage contracts against PostgreSQL: the server of TestDatabase.ts (the
 * configured one, or an embedded one started for the run). Each store gets its
 * own schema, dropped afterwards. When no server can be had these tests fail —
 * they never skip.
 */
import { PartnerStore, QuoteStore } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { Context, Layer } from "effect"
import pg from "pg"
import { afterAll } from "vitest"
import { testDatabaseUrl } from "../postgres/TestDatabase.js"
import { outboxContract } from "./OutboxContract.js"
import { partnerStoreContract } from "./PartnerStoreContract.js"
import { quoteStoreContract } from "./QuoteStoreContract.js"

const schemas: Array<string> = []
const freshSchema = () => {
  const schema = `kasko_contract_${process.pid}_${schemas.length}`
  schemas.push(schema)
  return schema
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: testDatabaseUrl })
  await client.connect()
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await client.end()
  }
})

const stores = () => PostgresStores.layer({ connectionString: testDatabaseUrl, schema: freshSchema(), poolSize: 8 })

/** The stores' layer narrowed to the one service a contract takes. */
const only = <I extends Layer.Success<ReturnType<typeof stores>>, S>(key: Context.Key<I, S>) =>
  Layer.flatMap(stores(), (context) => Layer.succeed(key, Context.get(context, key)))

quoteStoreContract("PostgreSQL", () => only(QuoteStore.QuoteStore))
partnerStoreContract("PostgreSQL", () => only(PartnerStore.PartnerStore))
outboxContract("PostgreSQL", stores)
