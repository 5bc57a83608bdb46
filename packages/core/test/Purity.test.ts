/**
 * The core stays pure (DESIGN §1, STYLE §2–3): it imports no adapter, no
 * transport, no SQL driver and no Node I/O module, and nothing in it reads the
 * wall clock or draws randomness — time comes from Effect's Clock, ids from
 * the IdGenerator port.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const SOURCE_DIRECTORY = join(import.meta.dirname, "..", "src")
const corePackage = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
  dependencies?: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional: boolean }>
}

const sources = readdirSync(SOURCE_DIRECTORY, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts"))
  .map((file) => ({ file, text: readFileSync(join(SOURCE_DIRECTORY, file), "utf8") }))

// ipaddr.js: the IANA special-purpose address registries, pure data and parsing, for the webhook endpoint policy
const ALLOWED_IMPORTS = [/^effect(\/.*)?$/, /^json-rules-engine$/, /^ipaddr\.js$/, /^\.\.?\//]

const FORBIDDEN_CALLS: ReadonlyArray<[RegExp, string]> = [
  [/\bDate\.now\s*\(/, "Date.now()"],
  [/\bnew\s+Date\s*\(\s*\)/, "new Date() without an argument"],
  [/\bMath\.random\s*\(/, "Math.random()"],
  [/\brandomUUID\b/, "crypto.randomUUID"],
  [/\bcrypto\./, "crypto"],
  [/\bperformance\.now\s*\(/, "performance.now()"],
  [/\bprocess\./, "process"],
  [/\brequire\s*\(/, "require()"]
]

const importsOf = (text: string): Array<string> =>
  [...text.matchAll(/(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g)].map(
    (match) => match[1] ?? match[2]!
  )

describe("the core's purity", () => {
  it("has sources to check", () => {
    expect(sources.length).toBeGreaterThan(10)
  })

  it.each(sources)("$file imports only effect, json-rules-engine, ipaddr.js and its own modules", ({ text }) => {
    const foreign = importsOf(text).filter((specifier) => !ALLOWED_IMPORTS.some((allowed) => allowed.test(specifier)))
    expect(foreign).toEqual([])
  })

  it.each(sources)("$file reads no wall clock and draws no randomness", ({ text }) => {
    const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")
    const found = FORBIDDEN_CALLS.filter(([pattern]) => pattern.test(code)).map(([, name]) => name)
    expect(found).toEqual([])
  })

  it("depends on ipaddr.js alone (no I/O, no dependencies of its own): effect is a peer, json-rules-engine an optional one", () => {
    expect(corePackage.dependencies).toEqual({ "ipaddr.js": expect.any(String) })
    expect(corePackage.peerDependencies).toEqual({
      effect: expect.any(String),
      "json-rules-engine": expect.any(String)
    })
    expect(corePackage.peerDependenciesMeta).toEqual({ "json-rules-engine": { optional: true } })
  })

  it("imports json-rules-engine only in the reference interpreter, and only when it runs", () => {
    const importing = sources.filter(({ text }) =>
      /from\s+["']json-rules-engine["']|import\(\s*["']json-rules-engine["']\s*\)/.test(text)
    )
    expect(importing.map(({ file }) => file)).toEqual([join("pricing", "ReferenceInterpreter.ts")])
    expect(importing[0]!.text).not.toMatch(/^import\s+(?!type\b)[^\n]*from\s+["']json-rules-engine["']/m)
  })

  it("would notice a forbidden import or call (the checks themselves work)", () => {
    expect(importsOf('import express from "express"\nexport * from "./x.js"')).toEqual(["express", "./x.js"])
    expect(FORBIDDEN_CALLS.some(([pattern]) => pattern.test("const t = Date.now()"))).toBe(true)
    expect(FORBIDDEN_CALLS.some(([pattern]) => pattern.test("new Date(epochMillis)"))).toBe(false)
  })
})
