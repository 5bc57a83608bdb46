/**
 * Several instances, one PostgreSQL database: two `kasko serve` processes on
 * two ports share a schema. Quotes move freely between them; concurrent
 * activations and same-key creations spread over both resolve to one.
 * (Losing the database connections under load: ConnectionKills.test.ts.)
 */
import { Examples } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { twoInstancesOnOneSchema } from "./ServiceInstances.js"

const { schema: SCHEMA, call, database } = twoInstancesOnOneSchema("kasko_instances", "fleet-partner")

const quotesOfPartner = async () =>
  Number(
    (await database().query(`SELECT count(*) AS count FROM ${SCHEMA}.quotes WHERE partner_id = 'fleet-partner'`))
      .rows[0].count
  )

describe("two instances, one PostgreSQL database", () => {
  it("reads and activates on one instance the quote created on the other", async () => {
    const created = await call(0, "POST", "/insurance/car/quotes", Examples.quoteRequest())
    expect(created.status).toBe(200)
    const readElsewhere = await call(1, "GET", `/insurance/car/quotes/${created.body.quote_id}`)
    expect(readElsewhere.text).toBe(created.text)
    expect((await call(1, "POST", `/insurance/car/quotes/${created.body.quote_id}/activation`)).status).toBe(200)
    const activated = await call(0, "GET", `/insurance/car/quotes/${created.body.quote_id}`)
    expect(activated.body.activated_at).toMatch(/Z$/)
  })

  it("records exactly one activation of 50 concurrent ones spread over both instances", async () => {
    const created = await call(0, "POST", "/insurance/car/quotes", Examples.quoteRequest())
    const path = `/insurance/car/quotes/${created.body.quote_id}/activation`
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => call(index % 2, "POST", path)))
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 200))
    const views = await Promise.all(
      [0, 1].map((instance) => call(instance, "GET", `/insurance/car/quotes/${created.body.quote_id}`))
    )
    expect(views[0]!.body.activated_at).toBe(views[1]!.body.activated_at)
    const stored = await database().query(`SELECT activated_at FROM ${SCHEMA}.quotes WHERE quote_id = $1`, [
      created.body.quote_id
    ])
    expect(new Date(Number(stored.rows[0].activated_at)).toISOString()).toBe(views[0]!.body.activated_at)
  })

  it("creates one quote from 20 concurrent same-key requests spread over both instances", async () => {
    const before = await quotesOfPartner()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(index % 2, "POST", "/insurance/car/quotes", Examples.quoteRequest(), {
          "idempotency-key": "fleet-burst-1"
        })
      )
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200))
    expect(new Set(answers.map((answer) => answer.body.quote_id)).size).toBe(1)
    expect(await quotesOfPartner()).toBe(before + 1)
  })
})
