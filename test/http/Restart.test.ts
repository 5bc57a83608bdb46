/** Quotes created before a restart are served after it, on the same data directory. */
import { Examples } from "@kasko/core"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"
import { makeClient, startTestService } from "./support.js"

const directory = temporaryDirectory("kasko-restart-")
afterAll(() => directory.remove())

// the service's public URL, the same before and after (the quotes' document links name it; unset, they would name
// each run's port, picked anew)
const environment = { KASKO_PUBLIC_URL: "https://api.forsikring.example" }

describe("restart", () => {
  it("serves quotes created and activated before a restart in the same form after it", async () => {
    const first = await startTestService({ dataDirectory: directory.path, environment })
    const before = await makeClient(first.url)
    const awaiting = await before.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest() })
    const activated = await before.request("POST", "/insurance/car/quotes", { body: Examples.quoteRequest() })
    await before.request("POST", `/insurance/car/quotes/${activated.body.quote_id}/activation`)
    const activatedBefore = await before.request("GET", `/insurance/car/quotes/${activated.body.quote_id}`)
    await first.stop()

    const second = await startTestService({ dataDirectory: directory.path, environment })
    try {
      const after = await makeClient(second.url)
      expect((await after.request("GET", `/insurance/car/quotes/${awaiting.body.quote_id}`)).text).toBe(awaiting.text)
      expect((await after.request("GET", `/insurance/car/quotes/${activated.body.quote_id}`)).text).toBe(
        activatedBefore.text
      )
    } finally {
      await second.stop()
    }
  })
})
