/** `kasko partners`, `kasko keys`, `kasko tokens`: happy paths and errors. */
import { runCli } from "@kasko/server"
import { decodeJwt, decodeProtectedHeader } from "jose"
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { join } from "node:path"
import { temporaryDirectory } from "../support.js"

const directory = temporaryDirectory("kasko-admin-")
afterAll(() => directory.remove())

let dataDirectory = ""
beforeEach(() => {
  dataDirectory = directory.newFile("data")
})

const kasko = async (...args: Array<string>) => {
  process.env["KASKO_DATA_DIR"] = dataDirectory
  try {
    return await runCli(args)
  } finally {
    delete process.env["KASKO_DATA_DIR"]
  }
}

describe("kasko partners", () => {
  it("adds a partner and prints its first subscription key alone, for a script to capture; --json prints the record", async () => {
    const result = await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset Øst A/S", "--cvr", "12345674")
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^ksk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\n$/)
    expect(result.stderr).toContain("partner bilhuset added")
    const printed = JSON.parse(
      (await kasko("partners", "add", "--id", "autohuset", "--name", "Autohuset", "--json")).stdout
    )
    expect(printed).toEqual({
      partner_id: "autohuset",
      subscription_key: expect.stringMatching(/^ksk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
    })
  })

  it("lists partners and suspends one, as text and as JSON", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset Øst A/S", "--cvr", "12345674")
    expect((await kasko("partners", "list")).stdout).toMatch(
      /^ID {8}NAME {14}CVR {7}STATUS {2}CREATED {19}PRODUCTS\nbilhuset {2}Bilhuset Øst A\/S {2}12345674 {2}active {2}\d{4}-\d\d-\d\dT[\d:.]+Z {2}all\n$/
    )
    const suspended = await kasko("partners", "suspend", "--id", "bilhuset")
    expect(suspended.stdout).toBe("partner bilhuset suspended: its keys and tokens are refused from now on\n")
    expect(JSON.parse((await kasko("partners", "suspend", "--id", "bilhuset", "--json")).stdout)).toMatchObject({
      partner_id: "bilhuset",
      status: "suspended"
    })
    const listed = JSON.parse((await kasko("partners", "list", "--json")).stdout)
    expect(listed).toEqual([
      {
        partner_id: "bilhuset",
        name: "Bilhuset Øst A/S",
        cvr_number: "12345674",
        status: "suspended",
        created_at: expect.stringMatching(/Z$/)
      }
    ])
  })

  it("says there are no partners yet, on standard error", async () => {
    expect(await kasko("partners", "list")).toMatchObject({
      exitCode: 0,
      stdout: "",
      stderr: expect.stringContaining("no partners yet")
    })
    expect(JSON.parse((await kasko("partners", "list", "--json")).stdout)).toEqual([])
  })

  it.each([
    [["partners", "add", "--name", "No Id"], 2, "Missing required argument: id"],
    [["partners", "add", "--id", "x", "--name", "Short Id"], 1, "partner_id must be 2–63"],
    [["partners", "add", "--id", "bilhuset", "--name", "B", "--cvr", "12345678"], 1, "cvr_number must be 8 digits"],
    [["partners", "suspend", "--id", "nobody"], 1, 'no partner with id "nobody"'],
    [["partners", "add", "--id", "bilhuset", "--name", "B", "--colour", "red"], 2, "Unknown argument: colour"],
    [["partners", "add", "--id", "--name", "B"], 2, "Not enough arguments following: id"],
    [["partners", "fly"], 2, "Unknown argument: fly"]
  ])("kasko %j exits %i: %s", async (args, exitCode, message) => {
    const result = await kasko(...args)
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toContain(message)
    expect(result.stdout).toBe("")
  })

  it("gives a partner the products it may sell, lists them, changes them, and lets it sell every product again", async () => {
    const added = await kasko(
      "partners",
      "add",
      "--id",
      "bilhuset",
      "--name",
      "Bilhuset",
      "--products",
      "insurance-car-leasing"
    )
    expect(added.exitCode).toBe(0)
    await kasko("partners", "add", "--id", "autohuset", "--name", "Autohuset")
    expect((await kasko("partners", "list")).stdout).toMatch(/\nautohuset .* all\nbilhuset .* insurance-car-leasing\n$/)
    const set = await kasko(
      "partners",
      "set-products",
      "--id",
      "bilhuset",
      "--products",
      "insurance-car-standalone, insurance-car-leasing"
    )
    expect(set.stdout).toBe(
      "partner bilhuset may sell insurance-car-standalone, insurance-car-leasing, from its next request on\n"
    )
    expect(JSON.parse((await kasko("partners", "list", "--json")).stdout)[1]).toMatchObject({
      partner_id: "bilhuset",
      products: ["insurance-car-standalone", "insurance-car-leasing"]
    })
    const every = JSON.parse(
      (await kasko("partners", "set-products", "--id", "bilhuset", "--all-products", "--json")).stdout
    )
    expect(every).not.toHaveProperty("products")
    expect((await kasko("partners", "list")).stdout).toMatch(/\nbilhuset .* all\n$/)
    // the option given twice names both
    const twice = ["--products", "insurance-car-leasing", "--products", "insurance-car-standalone"]
    expect((await kasko("partners", "set-products", "--id", "bilhuset", ...twice)).stdout).toBe(
      "partner bilhuset may sell insurance-car-leasing, insurance-car-standalone, from its next request on\n"
    )
  })

  it.each([
    [
      ["partners", "add", "--id", "bilhuset", "--name", "B", "--products", "insurance-yacht"],
      1,
      '"insurance-yacht" is not a product'
    ],
    [
      ["partners", "set-products", "--id", "bilhuset", "--products", "insurance-car-leasing,glider"],
      1,
      '"glider" is not a product'
    ],
    [["partners", "set-products", "--id", "bilhuset"], 2, "name the products with --products, or give --all-products"],
    [
      ["partners", "set-products", "--id", "bilhuset", "--products", "insurance-car-leasing", "--all-products"],
      2,
      "not both"
    ],
    [["partners", "set-products", "--id", "nobody", "--all-products"], 1, 'no partner with id "nobody"']
  ])("kasko %j exits %i: %s", async (args, exitCode, message) => {
    if (args[1] === "set-products") await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    const result = await kasko(...args)
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toContain(message)
    const listed = JSON.parse((await kasko("partners", "list", "--json")).stdout)
    for (const partner of listed) expect(partner).not.toHaveProperty("products")
  })

  it("accepts a product added as data (KASKO_PRODUCTS_DIR) among the products a partner may sell", async () => {
    process.env["KASKO_PRODUCTS_DIR"] = join(import.meta.dirname, "..", "..", "examples", "products")
    try {
      const added = await kasko(
        "partners",
        "add",
        "--id",
        "vanhuset",
        "--name",
        "Vanhuset",
        "--products",
        "insurance-van-business"
      )
      expect(added.exitCode).toBe(0)
    } finally {
      delete process.env["KASKO_PRODUCTS_DIR"]
    }
    expect(JSON.parse((await kasko("partners", "list", "--json")).stdout)[0].products).toEqual([
      "insurance-van-business"
    ])
    const without = await kasko("partners", "set-products", "--id", "vanhuset", "--products", "insurance-van-business")
    expect(without).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('"insurance-van-business" is not a product')
    })
  })

  it("refuses a second partner with the same id", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    const again = await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset again")
    expect(again).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('a partner with id "bilhuset" already exists')
    })
  })
})

describe("kasko keys", () => {
  it("adds a sandbox key, saying it works only in the sandbox", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    const added = await kasko("keys", "add", "--partner", "bilhuset", "--sandbox")
    expect(added.stdout).toMatch(/^ksk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\n$/)
    expect(added.stderr).toContain("works only in the sandbox")
    expect(JSON.parse((await kasko("keys", "add", "--partner", "bilhuset", "--sandbox", "--json")).stdout)).toEqual({
      partner_id: "bilhuset",
      subscription_key: expect.stringMatching(/^ksk_/),
      environment: "sandbox"
    })
  })

  it("adds a key for rotation and revokes one by prefix", async () => {
    const first = (await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")).stdout.trim()
    const added = await kasko("keys", "add", "--partner", "bilhuset")
    expect(added.stdout).toMatch(/^ksk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}\n$/)
    expect(added.stdout.trim()).not.toBe(first)
    expect(JSON.parse((await kasko("keys", "add", "--partner", "bilhuset", "--json")).stdout)).toEqual({
      partner_id: "bilhuset",
      subscription_key: expect.stringMatching(/^ksk_/)
    })
    const revoked = await kasko("keys", "revoke", "--partner", "bilhuset", "--key-prefix", first.slice(0, 12), "--json")
    expect(JSON.parse(revoked.stdout)).toEqual({ partner_id: "bilhuset", revoked: 1 })
    const again = await kasko("keys", "revoke", "--partner", "bilhuset", "--key-prefix", first.slice(4, 16))
    expect(again).toMatchObject({ exitCode: 1, stderr: expect.stringContaining("has no active key starting with") })
  })

  it.each([
    [["keys", "add", "--partner", "nobody"], 1, 'no partner with id "nobody"'],
    [["keys", "add"], 2, "Missing required argument: partner"],
    [["keys", "revoke", "--partner", "bilhuset", "--key-prefix", "zz"], 2, "at least 4 hex digits"]
  ])("kasko %j exits %i: %s", async (args, exitCode, message) => {
    const result = await kasko(...args)
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toContain(message)
  })
})

describe("kasko tokens issue", () => {
  it("prints the token alone: ES256, the partner as subject, the scopes, an expiry", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    const result = await kasko(
      "tokens",
      "issue",
      "--partner",
      "bilhuset",
      "--scopes",
      "offers:create quotes:read",
      "--ttl",
      "2h"
    )
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/)
    const token = result.stdout.trim()
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", kid: expect.any(String) })
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({
      sub: "bilhuset",
      scope: "offers:create quotes:read",
      iss: "kasko",
      aud: "kasko-partner-api"
    })
    expect(claims.exp! - claims.iat!).toBe(7200)
    const described = JSON.parse(
      (await kasko("tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--json")).stdout
    )
    expect(described).toEqual({
      token: expect.stringMatching(/^ey/),
      partner_id: "bilhuset",
      scopes: ["offers:create"],
      expires_in_seconds: 3600
    })
  })

  it.each([
    [["tokens", "issue", "--partner", "nobody", "--scopes", "offers:create"], 1, 'no partner with id "nobody"'],
    [
      ["tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create quotes:delete"],
      2,
      'unknown scope "quotes:delete"'
    ],
    [["tokens", "issue", "--partner", "bilhuset"], 2, "Missing required argument: scopes"],
    [["tokens", "issue", "--scopes", "offers:create"], 2, "Missing required argument: partner"],
    [
      ["tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--ttl", "forever"],
      2,
      "--ttl takes a number and a unit"
    ],
    [
      ["tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--ttl", "25h"],
      2,
      "--ttl may be at most 86400 seconds"
    ],
    [
      ["tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--ttl", "0s"],
      2,
      "--ttl takes a number and a unit"
    ]
  ])("kasko %j exits %i: %s", async (args, exitCode, message) => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    const result = await kasko(...args)
    expect(result.exitCode).toBe(exitCode)
    expect(result.stderr).toContain(message)
    expect(result.stdout).toBe("")
  })

  it("issues as long a token as KASKO_TOKEN_MAX_LIFETIME allows, and no longer", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    process.env["KASKO_TOKEN_MAX_LIFETIME"] = "3d"
    try {
      const result = await kasko("tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--ttl", "2d")
      expect(result.exitCode).toBe(0)
      const claims = decodeJwt(result.stdout.trim())
      expect(claims.exp! - claims.iat!).toBe(2 * 86_400)
      expect(
        await kasko("tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create", "--ttl", "4d")
      ).toMatchObject({ exitCode: 2 })
    } finally {
      delete process.env["KASKO_TOKEN_MAX_LIFETIME"]
    }
  })

  it("refuses a suspended partner", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset")
    await kasko("partners", "suspend", "--id", "bilhuset")
    expect(await kasko("tokens", "issue", "--partner", "bilhuset", "--scopes", "offers:create")).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining("suspended")
    })
  })
})

describe("kasko webhooks add", () => {
  it("refuses a subscription beyond KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER with exit 1, saying what to do", async () => {
    await kasko("partners", "add", "--id", "bilhuset", "--name", "Bilhuset Øst A/S")
    process.env["KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER"] = "2"
    try {
      const exitCodes = []
      for (const index of [1, 2, 3])
        exitCodes.push(
          (await kasko("webhooks", "add", "--partner", "bilhuset", "--url", `https://hooks.bilhuset.example/${index}`))
            .exitCode
        )
      expect(exitCodes).toEqual([0, 0, 1])
      const refused = await kasko(
        "webhooks",
        "add",
        "--partner",
        "bilhuset",
        "--url",
        "https://hooks.bilhuset.example/4"
      )
      expect(refused.stderr).toContain(
        "the partner has 2 webhook subscriptions, as many as one partner may have (KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER): remove one first"
      )
    } finally {
      delete process.env["KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER"]
    }
  })
})
