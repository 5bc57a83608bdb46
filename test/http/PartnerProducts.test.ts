/**
 * The products a partner may sell (issue 47), through the real service and the `kasko` command: a product it may
 * not sell is not shown to it (404) and is neither priced nor quoted for it (400 naming product.product_name); a
 * partner given no products sells every one; a change takes effect on the partner's next request, no restart.
 */
import { Examples } from "@kasko/core"
import { describe, expect, it } from "vitest"
import { kasko, serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("partner-products", ["alice-leasing", "bob-biler"])

const LEASING = "insurance-car-leasing"
const STANDALONE = "insurance-car-standalone"

const asPartner = (partnerId: string) => service.partners[partnerId]!.headers
const product = (partnerId: string, name: string) =>
  service.client.request("GET", `/products/${name}`, { headers: asPartner(partnerId) })
const offer = (partnerId: string) =>
  service.client.request("POST", "/insurance/car/offers", {
    body: Examples.offerRequest(),
    headers: asPartner(partnerId)
  })
const quote = (partnerId: string) =>
  service.client.request("POST", "/insurance/car/quotes", {
    body: Examples.quoteRequest(),
    headers: asPartner(partnerId)
  })
const setProducts = (partnerId: string, ...args: Array<string>) =>
  kasko(service.directory.path, "partners", "set-products", "--id", partnerId, ...args)

const NOT_AVAILABLE = [
  { field: "product.product_name", message: `is not available to this partner, which may sell: ${STANDALONE}` }
]

describe("the products a partner may sell", () => {
  it("hides, refuses to price and to quote a product the partner may not sell, and serves another partner as before", async () => {
    await setProducts("alice-leasing", "--products", STANDALONE)

    const hidden = await product("alice-leasing", LEASING)
    expect(hidden.status).toBe(404)
    expect(hidden.headers.get("content-type")).toContain("application/problem+json")
    expect((await product("alice-leasing", STANDALONE)).status).toBe(200)

    for (const refused of [await offer("alice-leasing"), await quote("alice-leasing")]) {
      expect(refused.status).toBe(400)
      expect(refused.headers.get("content-type")).toContain("application/problem+json")
      expect(refused.body.violations).toEqual(NOT_AVAILABLE)
    }

    expect((await product("bob-biler", LEASING)).status).toBe(200)
    expect((await offer("bob-biler")).status).toBe(200)
    expect((await quote("bob-biler")).status).toBe(200)
  })

  it("obeys a change from the next request on, without a restart, and sells every product again when told", async () => {
    await setProducts("alice-leasing", "--products", STANDALONE)
    expect((await offer("alice-leasing")).status).toBe(400)
    await setProducts("alice-leasing", "--products", `${STANDALONE},${LEASING}`)
    expect((await offer("alice-leasing")).status).toBe(200)
    await setProducts("alice-leasing", "--products", STANDALONE)
    expect((await product("alice-leasing", LEASING)).status).toBe(404)
    await setProducts("alice-leasing", "--all-products")
    expect((await product("alice-leasing", LEASING)).status).toBe(200)
    expect((await quote("alice-leasing")).status).toBe(200)
  })

  it("names only the products the partner may sell in the 404 of one it may not", async () => {
    await setProducts("alice-leasing", "--products", STANDALONE)
    const hidden = await product("alice-leasing", LEASING)
    expect(hidden.status).toBe(404)
    expect(hidden.body.detail).toBe(`No product with product_name "${LEASING}": it is one of ${STANDALONE}.`)
    await setProducts("alice-leasing", "--products", "")
    expect((await product("alice-leasing", LEASING)).body.detail).toBe(
      `No product with product_name "${LEASING}": this partner may sell none.`
    )
    const none = await offer("alice-leasing")
    expect(none.body.violations).toEqual([
      { field: "product.product_name", message: "is not available to this partner, which may sell no product" }
    ])
    await setProducts("alice-leasing", "--all-products")
  })
})
