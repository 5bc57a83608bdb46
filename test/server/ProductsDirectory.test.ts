/**
 * `kasko serve --products DIR` / KASKO_PRODUCTS_DIR (issue 44, items 3 and 5): the example van product of
 * examples/products, sold over HTTP beside the shipped products — its definition, offers, quotes, retrieval,
 * activation, IPID and quote document, and the API documents' enums — while a directory with an error starts
 * nothing, saying every error, exit 2; and a folder named like a shipped product replaces it.
 */
import { spawn } from "node:child_process"
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "@kasko/server"
import { kaskoWith, startServiceProcess, temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const MAIN = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const EXAMPLES = join(ROOT, "examples", "products")
const directory = temporaryDirectory("kasko-products-")
afterAll(() => directory.remove())

// the walk-through's quote of examples/products/README.md: a plumbing firm's van and its employee
const VAN_QUOTE = JSON.parse(readFileSync(join(ROOT, "examples", "requests", "van-quote.json"), "utf8")) as {
  readonly product: unknown
}

interface Offered {
  readonly price: { readonly annually: number; readonly monthly: number }
  readonly policies: ReadonlyArray<{ readonly coverages: ReadonlyArray<{ readonly name: string }> }>
}
interface Quoted {
  readonly quote_id: string
  readonly status: string
  readonly price: { readonly amount: number }
  readonly product: { readonly product_name: string }
  readonly policies: ReadonlyArray<{ readonly ipid_href: string }>
}

/** A partner of `dataDirectory` with every scope a quote's life takes: its request headers. */
const partnerHeaders = async (dataDirectory: string): Promise<Record<string, string>> => {
  const environment = { KASKO_DATA_DIR: dataDirectory }
  const { subscription_key } = JSON.parse(
    await kaskoWith(environment, "partners", "add", "--id", "vanhuset", "--name", "Varehuset A/S", "--json")
  )
  const scopes = "products:read offers:create quotes:create quotes:read quotes:activate"
  const token = (await kaskoWith(environment, "tokens", "issue", "--partner", "vanhuset", "--scopes", scopes)).trim()
  return {
    authorization: `Bearer ${token}`,
    "ocp-apim-subscription-key": subscription_key,
    "content-type": "application/json"
  }
}

const exitOf = (args: Array<string>, environment: Record<string, string>) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...environment },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr!.on("data", (chunk) => (stderr += String(chunk)))
    child.on("exit", (code) => resolve({ code, stderr }))
  })

describe("kasko serve with KASKO_PRODUCTS_DIR", () => {
  it("sells the example product over HTTP beside the shipped ones, its documents and API reference included", async () => {
    const dataDirectory = join(directory.path, "van")
    const headers = await partnerHeaders(dataDirectory)
    const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, KASKO_PRODUCTS_DIR: EXAMPLES })
    let quoteId = ""
    try {
      const get = (path: string) => fetch(`${service.url}${path}`, { headers })
      const post = (path: string, body: unknown) =>
        fetch(`${service.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) })

      const definition = (await (await get("/products/insurance-van-business")).json()) as {
        features: Array<{ name: string }>
      }
      expect(definition.features.map((feature: { name: string }) => feature.name)).toEqual(["basis", "plus"])

      const offer = await post("/insurance/car/offers", { product: VAN_QUOTE.product })
      expect(offer.status).toBe(200)
      const offered = (await offer.json()) as Offered
      expect(offered.policies[0]!.coverages.map((coverage: { name: string }) => coverage.name)).toContain(
        "fastmonteret_indretning"
      )

      const created = await post("/insurance/car/quotes", VAN_QUOTE)
      expect(created.status).toBe(200)
      const quote = (await created.json()) as Quoted
      quoteId = quote.quote_id
      expect(quote.product.product_name).toBe("business-insurance-van-craft")
      expect(quote.price.amount).toBe(offered.price.monthly)
      expect((await post(`/insurance/car/quotes/${quote.quote_id}/activation`, undefined)).status).toBe(200)
      const retrieved = (await (await get(`/insurance/car/quotes/${quote.quote_id}`)).json()) as Quoted
      expect(retrieved.status).toBe("activated")
      expect(retrieved.policies[0]!.ipid_href).toMatch(/\/products\/insurance-van-business\/variants\/standard\/ipid$/)

      const ipid = await fetch(`${service.url}/products/insurance-van-business/variants/extended/ipid`)
      expect(ipid.status).toBe(200)
      expect(ipid.headers.get("content-type")).toBe("application/pdf")
      expect((await get(`/insurance/car/quotes/${quote.quote_id}/document`)).status).toBe(200)

      const openapi = JSON.stringify(await (await fetch(`${service.url}/openapi.json`)).json())
      expect(openapi).toContain('"enum":["insurance-car-leasing","insurance-car-standalone","insurance-van-business"]')
      expect(openapi).toContain("business-insurance-van-transport")
      expect(openapi).toContain("products insurance-car-leasing, insurance-car-standalone and insurance-van-business.")
      const asyncapi = JSON.stringify(await (await fetch(`${service.url}/asyncapi.json`)).json())
      expect(asyncapi).toContain("business-insurance-van-craft")

      const missing = (await (await get("/products/insurance-car-fleet")).json()) as { detail: string }
      expect(missing.detail).toContain("insurance-van-business")

      // the documents command prints what the service serves, given the same products
      const pdf = join(directory.path, "van-quote.pdf")
      await kaskoWith(
        { KASKO_DATA_DIR: dataDirectory },
        ...["documents", "quote", "--partner", "vanhuset", "--quote", quote.quote_id, "--out", pdf],
        ...["--products", EXAMPLES]
      )
      expect(readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-")
      const ipidPdf = join(directory.path, "van-ipid.pdf")
      await kaskoWith(
        {},
        ...["documents", "ipid", "--product", "insurance-van-business", "--variant", "extended", "--out", ipidPdf],
        ...["--products", EXAMPLES]
      )
      expect(readFileSync(ipidPdf).subarray(0, 5).toString()).toBe("%PDF-")
    } finally {
      await service.stop()
    }

    // started again without the directory, the service answers the stored quote as it was stored, and says its
    // document cannot be printed (404), never 500
    const restarted = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory })
    try {
      const stored = await fetch(`${restarted.url}/insurance/car/quotes/${quoteId}`, { headers })
      expect(stored.status).toBe(200)
      const answered = (await stored.json()) as Quoted
      expect(answered.product.product_name).toBe("business-insurance-van-craft")
      expect(answered.status).toBe("activated")
      const document = await fetch(`${restarted.url}/insurance/car/quotes/${quoteId}/document`, { headers })
      expect(document.status).toBe(404)
      expect(((await document.json()) as { detail: string }).detail).toContain("insurance-van-business")
    } finally {
      await restarted.stop()
    }
  })

  it("replaces a shipped product by a folder of its name", async () => {
    const products = join(directory.path, "replacing")
    const folder = join(products, "insurance-car-leasing")
    cpSync(join(ROOT, "packages", "core", "products", "insurance-car-leasing"), folder, { recursive: true })
    cpSync(join(ROOT, "packages", "core", "tariffs", "insurance-car-leasing"), join(folder, "tariffs"), {
      recursive: true
    })
    const document = JSON.parse(readFileSync(join(folder, "product.json"), "utf8"))
    writeFileSync(join(folder, "product.json"), JSON.stringify({ ...document, title: "Leasingforsikring 2027" }))
    const dataDirectory = join(directory.path, "replacing-data")
    const headers = await partnerHeaders(dataDirectory)
    const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, KASKO_PRODUCTS_DIR: products })
    try {
      const leasing = (await (await fetch(`${service.url}/products/insurance-car-leasing`, { headers })).json()) as {
        title: string
      }
      expect(leasing.title).toBe("Leasingforsikring 2027")
      const standalone = await fetch(`${service.url}/products/insurance-car-standalone`, { headers })
      expect(standalone.status).toBe(200)
    } finally {
      await service.stop()
    }
  })

  it("sells a folder's product by the version of it in force today, of those in versions/", async () => {
    const products = join(directory.path, "versions")
    const folder = join(products, "insurance-car-leasing")
    cpSync(join(ROOT, "packages", "core", "products", "insurance-car-leasing"), folder, { recursive: true })
    cpSync(join(ROOT, "packages", "core", "tariffs", "insurance-car-leasing"), join(folder, "tariffs"), {
      recursive: true
    })
    const document = JSON.parse(readFileSync(join(folder, "product.json"), "utf8"))
    mkdirSync(join(folder, "versions"))
    // the second version took effect yesterday, the third takes effect in a year: today the second is in force
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    for (const [version, effective_from] of [
      ["v2", day(-1)],
      ["v3", day(365)]
    ] as const)
      writeFileSync(
        join(folder, "versions", `${version}.json`),
        JSON.stringify({ ...document, version, effective_from, title: `Leasingforsikring ${version}` })
      )
    const check = await runCli(["products", "check", products])
    expect(check.stdout).toContain("0 errors, 0 warnings")
    const dataDirectory = join(directory.path, "versions-data")
    const headers = await partnerHeaders(dataDirectory)
    const service = await startServiceProcess({ KASKO_DATA_DIR: dataDirectory, KASKO_PRODUCTS_DIR: products })
    try {
      const leasing = (await (await fetch(`${service.url}/products/insurance-car-leasing`, { headers })).json()) as {
        title: string
      }
      expect(leasing.title).toBe("Leasingforsikring v2")
    } finally {
      await service.stop()
    }
  })

  it("starts nothing from a directory with an error: every error named, exit 2", async () => {
    const broken = join(ROOT, "test", "cli", "fixtures", "broken-products", "several-mistakes")
    const { code, stderr } = await exitOf(["serve", "--products", broken], {
      KASKO_DATA_DIR: join(directory.path, "broken")
    })
    expect(code).toBe(2)
    expect(stderr).toMatch(/holds products kasko cannot load \(\d+ errors\)/)
    // the same errors as kasko products check prints, every one of them
    const errorLines = (text: string) => text.split("\n").filter((line) => line.startsWith("error"))
    const check = await runCli(["products", "check", broken])
    expect(check.exitCode).toBe(2)
    expect(errorLines(stderr).length).toBeGreaterThan(1)
    expect(errorLines(stderr)).toEqual(errorLines(check.stdout))
  })

  it("says so of a directory that is not there, exit 2", async () => {
    const { code, stderr } = await exitOf(["serve"], {
      KASKO_DATA_DIR: join(directory.path, "nowhere"),
      KASKO_PRODUCTS_DIR: join(directory.path, "no-such-directory")
    })
    expect(code).toBe(2)
    expect(stderr).toContain("cannot read")
  })
})
