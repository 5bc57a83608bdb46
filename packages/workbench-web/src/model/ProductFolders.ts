/**
 * A products directory as the workbench holds it (`kasko workbench --products DIR`): each product folder's files —
 * its document (`product.json`), more versions of it (`versions/<version>.json`), its tariffs
 * (`tariffs/<version>.json`) — and the catalogue they make beside the shipped products, as `kasko serve` makes it:
 * each folder's `product.json`, a folder named like a shipped product in its place. Shared by the page and the
 * server, which saves new versions.
 */
import { ProductCatalogue, ProductDocument } from "@kasko/core/actuarial"
import { Result, Schema } from "effect"

/** A product folder: its name (its product's) and its JSON files by their path in it, with `/` between folders. */
export interface ProductFolder {
  readonly folder: string
  readonly files: ReadonlyMap<string, string>
}

/**
 * The product document's file and the tariffs' folder of a product folder: the checker's `PRODUCT_FILE`
 * and `TARIFF_FOLDER`, written here so that the page's first load does not carry the checker (a bundler keeps a
 * whole namespace whose member is read); a test keeps them equal.
 */
export const PRODUCT_FILE = "product.json"
export const TARIFF_FOLDER = "tariffs"

/** The folder of a product folder holding its versions besides `product.json`, one `<version>.json` each. */
export const VERSIONS_FOLDER = "versions"

const VERSION_FILE = new RegExp(`^${VERSIONS_FOLDER}/[^/]+\\.json$`)
const TARIFF_FILE = new RegExp(`^${TARIFF_FOLDER}/[^/]+\\.json$`)

/** Whether a file of a folder is a version of its product: `product.json` or `versions/<version>.json`. */
export const isProductVersionFile = (file: string): boolean => file === PRODUCT_FILE || VERSION_FILE.test(file)

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

/** Every product version of the folders: each folder's `product.json` first, then its `versions/` in name order. */
export const productVersionFiles = (folders: ReadonlyArray<ProductFolder>): Array<ProductVersionFile> =>
  folders.flatMap(({ folder, files }) =>
    [...files]
      .filter(([file]) => isProductVersionFile(file))
      .sort(([a], [b]) => (a === PRODUCT_FILE ? -1 : b === PRODUCT_FILE ? 1 : a < b ? -1 : 1))
      .map(([file, source]) => ({ key: productVersionKey(folder, file), folder, file, source }))
  )

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
  /** A folder whose document does not decode, or documents that cannot make one catalogue. */
  readonly problems: ReadonlyArray<string>
}

/**
 * The catalogue `kasko serve --products` loads from the folders: the shipped products and each folder's
 * `product.json` (the catalogue holds one version of a product; the versions beside it are offered to open, not
 * priced). A document that does not decode is left out; documents that cannot stand together leave the shipped
 * products alone. Either is said in `problems`: the server refused them at start, so a file was changed since.
 */
export const folderCatalogue = (folders: ReadonlyArray<ProductFolder>): FolderCatalogue => {
  const problems: Array<string> = []
  const documents = folders.flatMap(({ folder, files }) => {
    const source = files.get(PRODUCT_FILE)
    if (source === undefined) {
      problems.push(`${folder} holds no ${PRODUCT_FILE}`)
      return []
    }
    const decoded = decodeProductText(source)
    if (Result.isSuccess(decoded)) return [decoded.success]
    problems.push(`${folder}/${PRODUCT_FILE} ${decoded.failure}`)
    return []
  })
  const catalogue = catalogueWith(documents, ProductCatalogue.shipped)
  if (Result.isSuccess(catalogue)) return { catalogue: catalogue.success, problems }
  return { catalogue: ProductCatalogue.shipped, problems: [...problems, catalogue.failure] }
}

/** The catalogue with these documents in place of its products of their names (added when it has none), or why not. */
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

/** The folders with one folder's document replaced by a text: what the checker and the service would read then. */
export const withDocument = (
  folders: ReadonlyArray<ProductFolder>,
  folder: string,
  source: string
): Array<ProductFolder> =>
  folders.map((candidate) =>
    candidate.folder === folder ? { folder, files: new Map([...candidate.files, [PRODUCT_FILE, source]]) } : candidate
  )
