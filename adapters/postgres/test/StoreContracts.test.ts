/**
 * The store contracts (@kasko/store-contracts) against PostgreSQL: the server
 * the vitest `postgres` project provides (the configured one, or an embedded
 * one started for the run; the repository's test/postgres/TestDatabaseSetup.ts).
 * Each store gets its own schema, dropped afterwards. When no server can be had
 * these tests fail — they never skip.
 */
import { PartnerStore, QuoteStore } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { Context, Layer } from "effect"
import pg from "pg"
import { outboxContract, partnerStoreContract, quoteStoreContract } from "@kasko/store-contracts"
import { testDatabaseUrl as providedUrl } from "@kasko/store-contracts/postgres"
import { afterAll } from "vitest"

const testDatabaseUrl = providedUrl()

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
