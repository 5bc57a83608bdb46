/**
 * A tariff directory as `kasko workbench` serves it: the tariff files
 * (`<product>/<version>.json`, as the shipped tariffs are laid out, or JSON
 * files directly in the directory) and the golden tables (CSV files in the
 * directory, or given apart), read fresh on every request so that a file
 * saved by the page or edited by hand shows on the next load. Proposals are
 * tariff files read from elsewhere (the example's proposed version), never
 * written to.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { basename, join, relative, sep } from "node:path"
import type { GoldenTableFile, TariffFile } from "../model/WorkspaceDocument.js"

/** Files with the extension in the directory and in its subdirectories one level down, sorted by path. */
const filesOf = (directory: string, extension: string): Array<string> => {
  const found: Array<string> = []
  const visit = (folder: string, depth: number) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue
      const path = join(folder, entry.name)
      if (entry.isDirectory() && depth < 1) visit(path, depth + 1)
      if (entry.isFile() && entry.name.endsWith(extension)) found.push(path)
    }
  }
  visit(directory, 0)
  return found
}

/** The path of a file below the directory, with forward slashes on every platform. */
export const relativeFile = (directory: string, path: string): string => relative(directory, path).split(sep).join("/")

/** Every tariff file of the directory, as written. */
export const readTariffFiles = (directory: string): Array<TariffFile> =>
  filesOf(directory, ".json").map((path) => ({
    file: relativeFile(directory, path),
    source: readFileSync(path, "utf8")
  }))

/** JSON files: a file itself, or those directly in a directory. */
const jsonFilesAt = (path: string, what: string): Array<string> => {
  if (!existsSync(path)) throw new Error(`no ${what} at ${path}`)
  return statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith(".json"))
        .sort()
        .map((name) => join(path, name))
    : [path]
}

/** The proposals at the paths (a JSON file, or a directory of them), each named by its file name. */
export const readProposalFiles = (paths: ReadonlyArray<string>): Array<TariffFile> =>
  paths
    .flatMap((path) => jsonFilesAt(path, "proposal"))
    .map((path) => ({ file: basename(path), source: readFileSync(path, "utf8"), proposal: true as const }))

/** The golden tables in the tariff directory and at the extra paths (a CSV file, or a directory of them). */
export const readGoldenTables = (directory: string, extraPaths: ReadonlyArray<string>): Array<GoldenTableFile> => {
  const inDirectory = filesOf(directory, ".csv").map((path) => ({ file: relativeFile(directory, path), path }))
  const extra = extraPaths.flatMap((path) => {
    if (!existsSync(path)) throw new Error(`no golden table at ${path}`)
    const paths = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith(".csv"))
          .sort()
          .map((name) => join(path, name))
      : [path]
    return paths.map((file) => ({ file: basename(file), path: file }))
  })
  return [...inDirectory, ...extra].map(({ file, path }) => ({ file, csv: readFileSync(path, "utf8") }))
}
