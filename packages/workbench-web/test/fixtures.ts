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

/** The example products directory: the van product added as files, and its golden table. */
export const EXAMPLE_PRODUCTS = join(import.meta.dirname, "..", "..", "..", "examples", "products")
export const VAN_FOLDER = join(EXAMPLE_PRODUCTS, "insurance-van-business")
export const VAN_DOCUMENT = readFileSync(join(VAN_FOLDER, "product.json"), "utf8")
export const VAN_V1 = readFileSync(join(VAN_FOLDER, "tariffs", "v1.json"), "utf8")
export const VAN_GOLDEN = readFileSync(join(EXAMPLE_PRODUCTS, "insurance-van-business-v1.golden.csv"), "utf8")

/** The van product's folder as the server reads it: its JSON files by their path in it. */
export const vanFolder = (files: Readonly<Record<string, string>> = {}) => ({
  folder: "insurance-van-business",
  files: new Map<string, string>([
    ["product.json", VAN_DOCUMENT],
    ["tariffs/v1.json", VAN_V1],
    ...Object.entries(files)
  ])
})

/** The van product's document with changes, as an editor would hold it. */
export const vanWith = (change: (document: Record<string, unknown>) => void): string => {
  const document = JSON.parse(VAN_DOCUMENT) as Record<string, unknown>
  change(document)
  return `${JSON.stringify(document, null, 2)}\n`
}

/** A fresh copy of the example products directory, removed by `remove()`. */
export const productsDirectoryCopy = () => {
  const path = mkdtempSync(join(tmpdir(), "kasko-products-"))
  cpSync(EXAMPLE_PRODUCTS, path, { recursive: true })
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}
