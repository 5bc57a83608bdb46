/**
 * The storage contracts against PostgreSQL: the server on 127.0.0.1:5432 (user
 * postgres, database test, trust auth), or KASKO_TEST_DATABASE_URL. Each store
 * gets its own schema, dropped afterwards. When the server is unreachable
 * these tests fail — they never skip.
 */
import { PartnerStore, QuoteStore } from "@kasko/core"
import { PostgresStores } from "@kasko/postgres"
import { Layer } from "effect"
import pg from "pg"
import { afterAll } from "vitest"
import { partnerStoreContract } from "./PartnerStoreContract.js"
import { quoteStoreContract } from "./QuoteStoreContract.js"

const CONNECTION = process.env["KASKO_TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"
const schemas: Array<string> = []
const freshSchema = () => {
  const schema = `kasko_contract_${process.pid}_${schemas.length}`
  schemas.push(schema)
  return schema
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: CONNECTION })
  await client.connect()
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await client.end()
  }
})

const stores = () => PostgresStores.layer({ connectionString: CONNECTION, schema: freshSchema(), poolSize: 8 })

quoteStoreContract("PostgreSQL", () => Layer.project(stores(), QuoteStore.QuoteStore, QuoteStore.QuoteStore, (store) => store))
partnerStoreContract("PostgreSQL", () => Layer.project(stores(), PartnerStore.PartnerStore, PartnerStore.PartnerStore, (store) => store))
