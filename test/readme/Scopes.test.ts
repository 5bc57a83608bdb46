/**
 * The README's authentication paragraph lists the scopes a token may carry: every one the service checks,
 * `webhooks:manage` included (a partner's developer found it only in /openapi.json).
 */
import { Authentication } from "@kasko/core"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8")

it("names every scope a token may carry where it lists the scopes", () => {
  const listed = /carries\s+scopes \(([^)]*)\)/.exec(README)?.[1] ?? ""
  expect([...listed.matchAll(/`([a-z]+:[a-z]+)`/g)].map((match) => match[1]).sort()).toEqual(
    [...Authentication.SCOPES].sort()
  )
})
