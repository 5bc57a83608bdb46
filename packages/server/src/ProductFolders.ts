/**
 * Products added as files: a directory of product folders (`<product>/product.json`, more versions of it as
 * `<product>/versions/<version>.json`, and `<product>/tariffs/<version>.json`, as `kasko products check` reads them) loaded into a catalogue beside the shipped products — a folder named like a
 * shipped product replaces it. A directory with any error loads nothing: every problem is said at once, and the
 * service does not start (`kasko serve --products DIR`, KASKO_PRODUCTS_DIR).
 * @module
 */
import { ProductCatalogue, TariffBook } from "@kasko/core"
import { ProductCheck } from "@kasko/core/actuarial"
import type { Layer } from "effect"
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs"
import { basename, join, resolve, sep } from "node:path"
import { InvalidDataError } from "./CommandResult.js"

type Finding = ProductCheck.ProductFinding

const isHidden = (path: string) => path.split(sep).some((segment) => segment.startsWith("."))

/** A directory that cannot be read as product folders: not there, not a folder, or holding none. */
export class ProductDirectoryUnreadable extends InvalidDataError {
  override readonly name = "ProductDirectoryUnreadable"
}

/** A product folder's files are read only up to this size: a document or tariff is a few tens of kilobytes. */
const LARGEST_FILE_BYTES = 1024 * 1024

// what lies under the directory, as seen through links: an entry that cannot be read (a dangling link, a loop) is
// the directory's problem, said as such
const statOf = (path: string) => {
  try {
    return statSync(path)
  } catch (error) {
    throw new ProductDirectoryUnreadable(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`)
  }
}

/** The product folders DIR names: itself when it holds a product document, else each folder in it. */
export const productFoldersAt = (directory: string): Array<string> => {
  let entries: Array<string>
  try {
    if (!statSync(directory).isDirectory()) throw new Error("not a folder")
    if (
      existsSync(join(directory, ProductCheck.PRODUCT_FILE)) ||
      existsSync(join(directory, ProductCheck.VERSION_FOLDER))
    )
      return [resolve(directory)]
    entries = readdirSync(directory)
  } catch (error) {
    throw new ProductDirectoryUnreadable(`cannot read ${directory}: ${(error as Error).message}`)
  }
  const folders = entries
    .filter((entry) => !isHidden(entry) && statOf(join(directory, entry)).isDirectory())
    .sort()
    .map((entry) => resolve(directory, entry))
  if (folders.length === 0)
    throw new ProductDirectoryUnreadable(
      `${directory} holds no product folder: a folder with ${ProductCheck.PRODUCT_FILE}, or folders of them`
    )
  return folders
}

/**
 * A product folder's JSON files by their path in it, with `/` between folders: its own and its subfolders' (where
 * its tariffs are; a file elsewhere is reported as not read), hidden ones left out. A file may be a link (a
 * mounted configuration's are) but must lie inside the folder, and be at most LARGEST_FILE_BYTES.
 */
export const jsonFilesIn = (folder: string): Map<string, string> => {
  const inside = realpathSync(folder)
  const files = new Map<string, string>()
  const visit = (relative: Array<string>, depth: number) => {
    for (const entry of readdirSync(join(folder, ...relative)).sort()) {
      if (isHidden(entry)) continue
      const path = [...relative, entry]
      const absolute = join(folder, ...path)
      const stat = statOf(absolute)
      if (stat.isDirectory()) {
        if (depth < 2) visit(path, depth + 1)
        continue
      }
      if (!entry.endsWith(".json") || !stat.isFile()) continue
      const name = path.join("/")
      if (!`${realpathSync(absolute)}${sep}`.startsWith(`${inside}${sep}`))
        throw new ProductDirectoryUnreadable(`${basename(folder)}/${name} lies outside its product folder`)
      if (stat.size > LARGEST_FILE_BYTES)
        throw new ProductDirectoryUnreadable(
          `${basename(folder)}/${name} is ${stat.size} bytes: a product folder's files are at most ${LARGEST_FILE_BYTES}`
        )
      files.set(name, readFileSync(absolute, "utf8"))
    }
  }
  visit([], 1)
  return files
}

/** `file: path: message`, the path left out for the whole file, the line and column given for the text's own mistakes. */
export const findingLine = (finding: Finding): string => {
  const at = finding.line === undefined ? undefined : `line ${finding.line}, column ${finding.column}`
  const where = at === undefined ? finding.path : finding.path === "" ? at : `${finding.path} (${at})`
  return `${finding.severity.padEnd(8)}${finding.file}: ${where === "" ? "" : `${where}: `}${finding.message}`
}

/** The folders of a product directory, each with its JSON files, as the service reads them (unchecked). */
export const readProductFolders = (directory: string): Array<{ folder: string; files: Map<string, string> }> =>
  productFoldersAt(directory).map((folder) => ({ folder: basename(folder), files: jsonFilesIn(folder) }))

/** The folders of a product directory, each with its JSON files, and what `ProductCheck` finds in them. */
export const checkedFolders = (directory: string) => {
  const folders = readProductFolders(directory)
  return { folders, findings: ProductCheck.checkProductFolders(folders) }
}

/** A product directory with errors: every one of them, as `kasko products check` prints them. */
export class ProductDirectoryRefused extends InvalidDataError {
  override readonly name = "ProductDirectoryRefused"
  constructor(
    readonly directory: string,
    readonly errors: ReadonlyArray<Finding>
  ) {
    super(
      `${directory} holds products kasko cannot load (${errors.length} error${errors.length === 1 ? "" : "s"}):\n${errors.map(findingLine).join("\n")}`
    )
  }
}

/** The products a directory adds: the catalogue with them, their tariff documents, and what the check warns of. */
export interface LoadedProducts {
  readonly directory: string
  /** The shipped products and the directory's, a folder named like a shipped product in its place. */
  readonly catalogue: ProductCatalogue.Catalogue
  /**
   * The directory's product documents, as read (JSON): what the catalogue adds to the shipped products, for what
   * takes them as plain data — an impact test's worker threads make the catalogue of them.
   */
  readonly productDocuments: ReadonlyArray<unknown>
  /** The tariff versions of the directory's products, as read. */
  readonly tariffDocuments: ReadonlyArray<unknown>
  /** The check's warnings: loaded anyway, and worth reading. */
  readonly warnings: ReadonlyArray<Finding>
}

/**
 * Reads and checks a directory of product folders, and loads them beside the shipped products. Throws
 * ProductDirectoryUnreadable or ProductDirectoryRefused (every error at once); nothing is half-loaded.
 */
export const fromDirectory = (directory: string): LoadedProducts => {
  const { folders, findings } = checkedFolders(directory)
  const errors = findings.filter((finding) => finding.severity === "error")
  if (errors.length > 0) throw new ProductDirectoryRefused(directory, errors)
  const documents = folders.flatMap(({ files }) =>
    [...files].flatMap(([path, text]) => (ProductCheck.isProductFile(path) ? [JSON.parse(text) as unknown] : []))
  )
  const tariffDocuments = folders.flatMap(({ files }) =>
    [...files].flatMap(([path, text]) =>
      path.startsWith(`${ProductCheck.TARIFF_FOLDER}/`) ? [JSON.parse(text) as unknown] : []
    )
  )
  return {
    directory,
    catalogue: ProductCatalogue.withProducts(ProductCatalogue.decodeCatalogue(documents).versions),
    productDocuments: documents,
    tariffDocuments,
    warnings: findings.filter((finding) => finding.severity === "warning")
  }
}

/** The TariffBook of loaded products: their tariffs, and the shipped tariffs of the shipped products kept. */
export const tariffBookOf = (products: LoadedProducts): Layer.Layer<TariffBook.TariffBook> =>
  TariffBook.ofCatalogue(products.catalogue, products.tariffDocuments)

/**
 * The products a command sells or prices: the directory its `--products` option names, else KASKO_PRODUCTS_DIR's,
 * else none (the shipped products alone). A directory that cannot load is the caller's to report (exit 2).
 */
export const commandProducts = (
  argv: Readonly<Record<string, unknown>>,
  environment: Readonly<Record<string, string | undefined>> = process.env
): LoadedProducts | undefined => {
  const directory = typeof argv["products"] === "string" ? argv["products"] : environment["KASKO_PRODUCTS_DIR"]
  return directory === undefined ? undefined : fromDirectory(directory)
}
