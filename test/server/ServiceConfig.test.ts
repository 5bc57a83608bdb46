import { readServiceConfig } from "@kasko/server"
import { Option, Result } from "effect"
import { describe, expect, it } from "vitest"

describe("service configuration", () => {
  it("has defaults for everything", () => {
    const config = Result.getOrThrow(readServiceConfig({}))
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      dataDirectory: "./data",
      logLevel: "info",
      sqliteSynchronous: "FULL",
      bodyLimitBytes: 102400,
      activatedRetentionDays: 365
    })
    expect(Option.isNone(config.publicUrl)).toBe(true)
  })

  it("reads the environment", () => {
    const config = Result.getOrThrow(
      readServiceConfig({
        PORT: "9000",
        KASKO_DATA_DIR: "/var/lib/kasko",
        KASKO_SQLITE_SYNCHRONOUS: "NORMAL",
        KASKO_LOG_LEVEL: "warn"
      })
    )
    expect(config).toMatchObject({
      port: 9000,
      dataDirectory: "/var/lib/kasko",
      sqliteSynchronous: "NORMAL",
      logLevel: "warn"
    })
  })

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ KASKO_SQLITE_SYNCHRONOUS: "OFF" }, "KASKO_SQLITE_SYNCHRONOUS"],
    [{ KASKO_LOG_LEVEL: "loud" }, "KASKO_LOG_LEVEL"],
    [{ KASKO_BODY_LIMIT_BYTES: "10" }, "KASKO_BODY_LIMIT_BYTES"],
    [{ KASKO_WEBHOOK_LEASE_MS: "3000" }, "KASKO_WEBHOOK_LEASE_MS"],
    [{ KASKO_METRICS_PORT: "99999" }, "KASKO_METRICS_PORT"],
    [{ KASKO_REDIS_URL: "http://cache:6379" }, "KASKO_REDIS_URL"]
  ])("rejects %j with a message naming %s", (environment, variable) => {
    const error = readServiceConfig(environment)
    expect(Result.isFailure(error)).toBe(true)
    expect(Result.getFailure(error).pipe(Option.getOrThrow)).toContain(variable)
  })

  const LINK_VARIABLES = ["KASKO_PUBLIC_URL", "KASKO_DOCUMENTS_BASE_URL", "KASKO_PRIVACY_POLICY_URL"] as const
  const NOT_LINK_URLS = [
    "javascript:alert(1)//",
    "api.example.com",
    "ftp://documents.example/",
    "data:text/html,<script>alert(1)</script>",
    "https://",
    "https://user:secret@api.example.com",
    "https://user@api.example.com",
    "https://@api.example.com",
    "https://api.example.com/?next=https://evil.example",
    "https://api.example.com/docs?",
    "https://api.example.com/#fragment",
    "https://api.example.com#"
  ]

  for (const variable of LINK_VARIABLES)
    it.each(NOT_LINK_URLS)(`refuses ${variable}=%s, naming the variable and what it must be`, (value) => {
      const error = Result.getFailure(readServiceConfig({ [variable]: value })).pipe(Option.getOrThrow)
      expect(error).toContain(variable)
      expect(error).toContain("an http or https URL with no query, fragment or user info")
    })

  it("takes the link URLs in their normal form, the public URL without a trailing slash", () => {
    const config = Result.getOrThrow(
      readServiceConfig({
        KASKO_PUBLIC_URL: "https://API.insurer.example/gateway/",
        KASKO_DOCUMENTS_BASE_URL: "http://documents.insurer.example:8443/kasko",
        KASKO_PRIVACY_POLICY_URL: "https://insurer.example/privatliv.pdf"
      })
    )
    expect(Option.getOrThrow(config.publicUrl)).toBe("https://api.insurer.example/gateway")
    expect(Option.getOrThrow(config.documentsBaseUrl)).toBe("http://documents.insurer.example:8443/kasko")
    expect(Option.getOrThrow(config.privacyPolicyUrl)).toBe("https://insurer.example/privatliv.pdf")
    expect(
      Option.getOrThrow(Result.getOrThrow(readServiceConfig({ KASKO_PUBLIC_URL: "http://127.0.0.1:8080" })).publicUrl)
    ).toBe("http://127.0.0.1:8080")
  })
})
