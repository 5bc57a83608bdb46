/**
 * Saving an edited tariff as a version file: only a tariff the engine loads
 * is written, as `<product>/<version>.json`, and a version whose
 * `effective_from` has come is never overwritten — prices were, or may have
 * been, given with it; a change to it is a new version.
 */
import { TariffBook } from "@kasko/core"
import type { Tariff } from "@kasko/core/actuarial"
import { mkdirSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { readTariffFiles } from "./TariffDirectory.js"

export type SaveOutcome =
  | { readonly _tag: "Saved"; readonly file: string }
  | {
      readonly _tag: "Refused"
      /** `invalid`: the engine would not load it; `in-effect`: it would overwrite a version that has taken effect. */
      readonly kind: "invalid" | "in-effect"
      readonly reason: string
    }

/** A version name that is also a safe file name. */
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

const loadable = (source: string): Tariff.Tariff | string => {
  let document: unknown
  try {
    document = JSON.parse(source)
  } catch (error) {
    return `the text is not JSON: ${(error as Error).message}`
  }
  try {
    return TariffBook.decodeTariffs([document])[0]!
  } catch (error) {
    return `the engine would not load it: ${(error as Error).message.replace(/^tariff document 0 /, "")}`
  }
}

/** The product and version a tariff file declares, read without judging the rest of it. */
const declared = (source: string): { product_name?: unknown; version?: unknown; effective_from?: unknown } => {
  try {
    const document: unknown = JSON.parse(source)
    return typeof document === "object" && document !== null ? document : {}
  } catch {
    return {}
  }
}

/** Writes the tariff as a version file of the directory, unless the rule above forbids it. */
export const saveTariffVersion = (directory: string, source: string, today: string): SaveOutcome => {
  const tariff = loadable(source)
  if (typeof tariff === "string") return { _tag: "Refused", kind: "invalid", reason: tariff }
  if (!VERSION_NAME.test(tariff.version)) {
    return {
      _tag: "Refused",
      kind: "invalid",
      reason: `version "${tariff.version}" must be letters, digits, ".", "_" or "-" (it names the file)`
    }
  }
  const target = `${tariff.product_name}/${tariff.version}.json`
  const existing = readTariffFiles(directory).filter((file) => {
    const { product_name, version } = declared(file.source)
    return file.file === target || (product_name === tariff.product_name && version === tariff.version)
  })
  for (const file of existing) {
    const { effective_from } = declared(file.source)
    if (typeof effective_from !== "string") {
      return {
        _tag: "Refused",
        kind: "in-effect",
        reason: `${file.file} does not say when it takes effect, so it is not overwritten — save the change under a new version`
      }
    }
    if (effective_from <= today) {
      return {
        _tag: "Refused",
        kind: "in-effect",
        reason: `${file.file} took effect on ${effective_from}, on or before today (${today}): a version that has taken effect is never overwritten — save the change under a new version`
      }
    }
  }
  const file = existing[0]?.file ?? target
  const path = join(directory, ...file.split("/"))
  mkdirSync(dirname(path), { recursive: true })
  // written whole or not at all: a reader never sees half a tariff
  const temporary = `${path}.${process.pid}.saving`
  writeFileSync(temporary, source.endsWith("\n") ? source : `${source}\n`)
  renameSync(temporary, path)
  return { _tag: "Saved", file }
}
