/**
 * A products directory as the workbench holds it (`kasko workbench --products DIR`): each product folder's files —
 * its document (`product.json`) and more versions of it (`versions/<version>.json`), its tariffs
 * (`tariffs/<version>.json`) — and the catalogue they make beside the shipped products, as `kasko serve` makes it:
 * every version of each folder's product, a folder named like a shipped product in its place. Shared by the page and
 * the server, which saves new versions.
 */
import { ProductCatalogue, ProductCheck, ProductDocument } from "@kasko/core/actuarial"
import { Result, Schema } from "effect"
import { namesAFile } from "./VersionName.js"

/** A product folder: its name (its product's) and its JSON files by their path in it, with `/` between folders. */
export interface ProductFolder {
  readonly folder: string
  readonly files: ReadonlyMap<string, string>
}

const { PRODUCT_FILE, TARIFF_FOLDER, VERSION_FOLDER, isProductFile } = ProductCheck

const TARIFF_FILE = new RegExp(`^${TARIFF_FOLDER}/[^/]+\\.json$`)

/** Whether a file of a folder is one of its tariffs: `tariffs/<version>.json`. */
export const isFolderTariffFile = (file: string): boolean => TARIFF_FILE.test(file)

/** Where a product version is found in the page: `<folder>/<file>` (`insurance-van-business/versions/v2.json`). */
export const productVersionKey = (folder: string, file: string): string => `${folder}/${file}`

/** A product version as written: where, its text. */
export interface ProductVersionFile {
  readonly key: string
  readonly folder: string
  readonly file: string
  readonly source: string
}

/** A folder's product versions: its `product.json` first, then its `versions/` in name order. */
const versionsIn = ({ folder, files }: ProductFolder): Array<ProductVersionFile> =>
  [...files]
    .filter(([file]) => isProductFile(file))
    .sort(([a], [b]) => (a === PRODUCT_FILE ? -1 : b === PRODUCT_FILE ? 1 : a < b ? -1 : 1))
    .map(([file, source]) => ({ key: productVersionKey(folder, file), folder, file, source }))

/** Every product version of the folders, folder by folder. */
export const productVersionFiles = (folders: ReadonlyArray<ProductFolder>): Array<ProductVersionFile> =>
  folders.flatMap(versionsIn)

const decodeDocument = Schema.decodeUnknownResult(ProductDocument.ProductDocument)

/** A product document's text decoded as the catalogue decodes it, or why it is not one. */
export const decodeProductText = (source: string): Result.Result<ProductDocument.ProductDocument, string> => {
  let json: unknown
  try {
    json = JSON.parse(source)
  } catch (error) {
    return Result.fail(`is not JSON: ${(error as Error).message}`)
  }
  return Result.mapError(decodeDocument(json), (issue) => `does not decode: ${String(issue)}`)
}

/** The catalogue of the folders, and what kept any of them out of it. */
export interface FolderCatalogue {
  readonly catalogue: ProductCatalogue.Catalogue
  /** A version whose document does not decode, or documents that cannot make one catalogue. */
  readonly problems: ReadonlyArray<string>
}

/** The documents of a folder's versions that decode; those that do not are said in `problems`. */
const decodedVersions = (folder: ProductFolder, problems: Array<string>): Array<ProductDocument.ProductDocument> =>
  versionsIn(folder).flatMap((version) => {
    const decoded = decodeProductText(version.source)
    if (Result.isSuccess(decoded)) return [decoded.success]
    problems.push(`${version.key} ${decoded.failure}`)
    return []
  })

/**
 * The catalogue `kasko serve --products` loads from the folders: the shipped products and every version of each
 * folder's product. A version that does not decode is left out; documents that cannot stand together leave the
 * shipped products alone. Either is said in `problems`: the server refused them at start, so a file was changed since.
 */
export const folderCatalogue = (folders: ReadonlyArray<ProductFolder>): FolderCatalogue => {
  const problems: Array<string> = []
  const documents = folders.flatMap((folder) => decodedVersions(folder, problems))
  const catalogue = catalogueWith(documents, ProductCatalogue.shipped)
  if (Result.isSuccess(catalogue)) return { catalogue: catalogue.success, problems }
  return { catalogue: ProductCatalogue.shipped, problems: [...problems, catalogue.failure] }
}

/**
 * The catalogue with these documents as every version of their products (added where it has none of them), or why
 * not: two versions of one date, two products answering with one quoted name.
 */
export const catalogueWith = (
  documents: ReadonlyArray<ProductDocument.ProductDocument>,
  base: ProductCatalogue.Catalogue
): Result.Result<ProductCatalogue.Catalogue, string> => {
  if (documents.length === 0) return Result.succeed(base)
  try {
    return Result.succeed(ProductCatalogue.withProducts(documents, base))
  } catch (error) {
    return Result.fail((error as Error).message)
  }
}

const declaredVersion = (source: string): unknown => {
  try {
    return (JSON.parse(source) as { version?: unknown } | null)?.version
  } catch {
    return undefined
  }
}

/**
 * Where an edited product document stands in its folder: as the version it declares — in place of the file that
 * holds that version (an edit of it), else as the `versions/<version>.json` saving it would write; a text that
 * names no version it could be saved as stands in place of the file it was opened from.
 */
export const placeOfText = (folder: ProductFolder, openedFile: string, source: string): string => {
  const version = declaredVersion(source)
  if (typeof version !== "string") return openedFile
  const holding = versionsIn(folder).find((file) => declaredVersion(file.source) === version)
  if (holding !== undefined) return holding.file
  return namesAFile(version) ? `${VERSION_FOLDER}/${version}.json` : openedFile
}

/** The folders with one folder's `file` (a path in it) holding a text: what the checker and the service would read then. */
export const withFile = (
  folders: ReadonlyArray<ProductFolder>,
  folder: string,
  file: string,
  source: string
): Array<ProductFolder> =>
  folders.map((candidate) =>
    candidate.folder === folder ? { folder, files: new Map([...candidate.files, [file, source]]) } : candidate
  )

/** The documents of a folder's versions that decode, with a text in `file`: its product's versions then. */
export const versionsWith = (
  folder: ProductFolder,
  file: string,
  source: string
): Array<ProductDocument.ProductDocument> =>
  decodedVersions({ folder: folder.folder, files: new Map([...folder.files, [file, source]]) }, [])
