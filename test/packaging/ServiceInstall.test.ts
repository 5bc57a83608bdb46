/**
 * What installing the service brings (`@kasko/server`'s production
 * dependencies, all the way down, as pnpm resolves them): the engine, the
 * adapters and their libraries — and not the actuary's tools, their charting
 * libraries (vega, vega-lite), their editor, or json-rules-engine, the
 * reference interpreter the service never runs.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { pnpm } from "./Pnpm.js"

const SERVER = join(import.meta.dirname, "..", "..", "packages", "server")

interface Listed {
  readonly dependencies?: Record<string, Listed>
}

const namesIn = (dependencies: Record<string, Listed> | undefined, into: Set<string>): Set<string> => {
  for (const [name, listed] of Object.entries(dependencies ?? {})) {
    into.add(name)
    namesIn(listed.dependencies, into)
  }
  return into
}

describe("the service's install", () => {
  const listed = JSON.parse(pnpm(["list", "--prod", "--depth", "Infinity", "--json"], SERVER)) as Array<Listed>
  const installed = namesIn(listed[0]?.dependencies, new Set())

  it("holds the engine, the adapters and what they run on", () => {
    for (const name of [
      "@kasko/core",
      "@kasko/express",
      "@kasko/sqlite",
      "@kasko/postgres",
      "@kasko/credentials",
      "effect",
      "express",
      "better-sqlite3",
      "pg",
      "jose"
    ]) {
      expect(installed, name).toContain(name)
    }
  })

  it("leaves out the actuary's tools and everything only they use", () => {
    const toolsOnly = [...installed].filter((name) =>
      /^(@kasko\/workbench|vega|@codemirror\/|@lezer\/|csv-|d3-dsv$|pure-rand$|json-rules-engine$)/.test(name)
    )
    expect(toolsOnly).toEqual([])
  })
})
