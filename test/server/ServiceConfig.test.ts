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
})
