/**
 * Saving an edited tariff as a version file: only a tariff the engine loads
 * is written, as `<product>/<version>.json`, and a version whose
 * `effective_from` has come is never overwritten — prices were, or may have
 * been, given with it; a change to it is a new version. A new version may
 * not take effect in the past either (it would reprice retroactively) unless
 * the workbench was started to allow it. Nothing is written through a
 * symbolic link or outside the tariff directory: the listing skips links, so
 * writing through one would change a file the workbench does not show.
 */
import { TariffDocuments } from "@kasko/core/actuarial"
import type { Tariff } from "@kasko/core/actuarial"
import { lstatSync, mkdirSync, realpathSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { readTariffFiles } from "./TariffDirectory.js"

export type SaveOutcome =
  | { readonly _tag: "Saved"; readonly file: string }
  | {
      readonly _tag: "Refused"
      /**
       * `invalid`: the engine would not load it; `in-effect`: it would overwrite a version that has taken effect;
       * `backdated`: a new version taking effect before today; `outside`: the file would be written through a
       * symbolic link, or outside the tariff directory.
       */
      readonly kind: "invalid" | "in-effect" | "backdated" | "outside"
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
    return TariffDocuments.decodeTariffs([document])[0]!
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

export interface SaveOptions {
  /** Lets a new version take effect before today (`kasko workbench --allow-backdated`). */
  readonly allowBackdated?: boolean
}

/** Why writing `file` (relative, with forward slashes) below the directory would leave it, or undefined. */
const outsideReason = (directory: string, file: string): string | undefined => {
  const segments = file.split("/")
  for (let depth = 1; depth <= segments.length; depth++) {
    const path = join(directory, ...segments.slice(0, depth))
    let isLink = false
    try {
      isLink = lstatSync(path).isSymbolicLink()
    } catch {
      break // not there yet: it will be made below the directory
    }
    if (isLink)
      return `${segments.slice(0, depth).join("/")} is a symbolic link: the workbench writes only inside its tariff directory`
  }
  const root = realpathSync(directory)
  let parent = dirname(join(directory, ...segments))
  while (parent !== directory && !existsOrFalse(parent)) parent = dirname(parent)
  const inside = relative(root, realpathSync(parent))
  return inside.startsWith("..") || inside.split(sep).includes("..")
    ? `${file} would be written outside the tariff directory`
    : undefined
}

const existsOrFalse = (path: string) => {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** Writes the tariff as a version file of the directory, unless the rules above forbid it. */
export const saveTariffVersion = (
  directory: string,
  source: string,
  today: string,
  options: SaveOptions = {}
): SaveOutcome => {
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
  const outside = outsideReason(directory, file)
  if (outside !== undefined) return { _tag: "Refused", kind: "outside", reason: outside }
  if (existing.length === 0 && options.allowBackdated !== true && tariff.effective_from < today) {
    return {
      _tag: "Refused",
      kind: "backdated",
      reason: `a new version taking effect on ${tariff.effective_from}, before today (${today}), would reprice what was priced since: give it a date from today on (or start the workbench with --allow-backdated)`
    }
  }
  const path = join(directory, ...file.split("/"))
  mkdirSync(dirname(path), { recursive: true })
  // written whole or not at all: a reader never sees half a tariff
  const temporary = `${path}.${process.pid}.saving`
  writeFileSync(temporary, source.endsWith("\n") ? source : `${source}\n`)
  renameSync(temporary, path)
  return { _tag: "Saved", file }
}
