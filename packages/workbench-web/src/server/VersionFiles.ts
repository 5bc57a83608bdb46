/**
 * The rules every version the workbench saves follows, a tariff's or a product's: a version name that is also a
 * safe file name; no new version taking effect before today, which would reprice what was priced since, unless
 * the workbench was started to allow it; nothing written through a symbolic link or outside the directory it
 * saves in (its listings skip links, so writing through one would change a file the workbench does not show); and
 * a file written whole or not at all.
 */
import { lstatSync, mkdirSync, realpathSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"

export { versionNameProblem } from "../model/VersionName.js"

/** Why saving was refused; the kinds the server answers 409 for (`in-effect`, `backdated`) are about dates. */
export type RefusalKind = "invalid" | "in-effect" | "backdated" | "outside"

/** What saving a version came to: the file written (below the directory saved in), or why nothing was. */
export type SaveOutcome =
  | { readonly _tag: "Saved"; readonly file: string }
  | {
      readonly _tag: "Refused"
      /**
       * `invalid`: the engine would not load it; `in-effect`: it would overwrite a version that has taken effect (or,
       * for a product, any version); `backdated`: a new version taking effect before today; `outside`: the file would
       * be written through a symbolic link, or outside the directory saved in.
       */
      readonly kind: RefusalKind
      readonly reason: string
    }

/** What every save of a version may be started to allow. */
export interface SaveOptions {
  /** Lets a new version take effect before today (`kasko workbench --allow-backdated`). */
  readonly allowBackdated?: boolean
}

export const refused = (kind: RefusalKind, reason: string): SaveOutcome => ({ _tag: "Refused", kind, reason })

/** Why a new version taking effect on `effectiveFrom` may not be saved today, or undefined. */
export const backdatedProblem = (effectiveFrom: string, today: string, options: SaveOptions): string | undefined =>
  options.allowBackdated !== true && effectiveFrom < today
    ? `a new version taking effect on ${effectiveFrom}, before today (${today}), would reprice what was priced since: give it a date from today on (or start the workbench with --allow-backdated)`
    : undefined

const existsOrFalse = (path: string) => {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/**
 * Why writing `file` (relative, with forward slashes) below the directory would leave it, or undefined; `what`
 * names the directory in the reason ("tariff directory").
 */
export const outsideProblem = (directory: string, file: string, what: string): string | undefined => {
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
      return `${segments.slice(0, depth).join("/")} is a symbolic link: the workbench writes only inside its ${what}`
  }
  const root = realpathSync(directory)
  let parent = dirname(join(directory, ...segments))
  while (parent !== directory && !existsOrFalse(parent)) parent = dirname(parent)
  const inside = relative(root, realpathSync(parent))
  return inside.startsWith("..") || inside.split(sep).includes("..")
    ? `${file} would be written outside the ${what}`
    : undefined
}

/** Writes the text as `file` below the directory, whole or not at all: a reader never sees half a version. */
export const writeWhole = (directory: string, file: string, source: string): void => {
  const path = join(directory, ...file.split("/"))
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.saving`
  writeFileSync(temporary, source.endsWith("\n") ? source : `${source}\n`)
  renameSync(temporary, path)
}

/** The members a version file declares, read without judging the rest of it. */
export const declared = (source: string): { product_name?: unknown; version?: unknown; effective_from?: unknown } => {
  try {
    const document: unknown = JSON.parse(source)
    return typeof document === "object" && document !== null ? document : {}
  } catch {
    return {}
  }
}
