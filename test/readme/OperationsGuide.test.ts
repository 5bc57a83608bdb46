/**
 * The operations guide's table names every environment variable `kasko serve
 * --help` lists, and none it does not: a variable added to the service, or
 * removed, fails here until the guide says it. (The table moved there from the
 * README, which once lacked five of them.)
 */
import { runCli } from "@kasko/server"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const GUIDE = readFileSync(join(import.meta.dirname, "..", "..", "docs", "operations", "README.md"), "utf8")

describe("the operations guide's table of variables", () => {
  it("names exactly the variables kasko serve --help lists", async () => {
    const help = (await runCli(["serve", "--help"])).stdout
    const listed = [...help.matchAll(/^ {2}((?:KASKO|OTEL)_[A-Z_]+|PORT|HOST)\s/gm)].map((match) => match[1]!)
    const table = [...GUIDE.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]!)
    expect(listed.length, "no variable in kasko serve --help: is the search broken?").toBeGreaterThan(30)
    expect([...table].sort()).toEqual([...listed].sort())
  })
})
