/** A tariff directory to test on: a copy of the shipped tariffs in a temporary directory. */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

export const SHIPPED_TARIFFS = join(
  dirname(createRequire(import.meta.url).resolve("@kasko/core/package.json")),
  "tariffs"
)
export const LEASING_V1 = readFileSync(join(SHIPPED_TARIFFS, "insurance-car-leasing", "v1.json"), "utf8")

/** The leasing tariff v1 with changes: another version, effective date or amounts. */
export const leasingWith = (change: (document: Record<string, unknown>) => void): string => {
  const document = JSON.parse(LEASING_V1) as Record<string, unknown>
  change(document)
  return `${JSON.stringify(document, null, 2)}\n`
}

/** A fresh copy of the shipped tariffs, removed by `remove()`. */
export const tariffDirectoryCopy = () => {
  const path = mkdtempSync(join(tmpdir(), "kasko-workbench-"))
  cpSync(SHIPPED_TARIFFS, path, { recursive: true })
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}
