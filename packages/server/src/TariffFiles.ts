/**
 * Tariff files as the actuary's commands read them: a file, or a directory of
 * them (`<product>/<version>.json`), each decoded and compiled. A file that is
 * not a tariff is refused in one line naming it and its first problem — never
 * the whole file, which another document's JSON in the same directory would be.
 */
import { type ProductCatalogue, type Tariff, TariffDocuments } from "@kasko/core/actuarial"
import { Result } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { UsageError } from "./CommandResult.js"

/** Every JSON file of a directory and its folders, sorted, or the file itself. */
export const tariffFilesAt = (path: string): Array<string> => {
  let directory: boolean
  try {
    directory = statSync(path).isDirectory()
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
  }
  if (!directory) return [path]
  return (readdirSync(path, { recursive: true, encoding: "utf8" }) as Array<string>)
    .filter((entry) => entry.endsWith(".json"))
    .sort()
    .map((entry) => join(path, entry))
}

/** A file's JSON, or a usage error naming the file (JSON.parse's own message quotes at most a few characters). */
export const readJsonFile = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"))
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`)
  }
}

/**
 * The tariff of a file, or an error (exit 1, as for a malformed portfolio) naming the file — after `side`
 * (`NEW `), when given — and its first problem.
 */
export const readTariffFile = (file: string, side = "", catalogue?: ProductCatalogue.Catalogue): Tariff.Tariff =>
  Result.getOrThrowWith(
    TariffDocuments.decodeTariffFile(readJsonFile(file), catalogue),
    (problem) =>
      new Error(`${side}${file} is not a tariff kasko can load: ${problem} (kasko tariff check lists every problem)`)
  )
