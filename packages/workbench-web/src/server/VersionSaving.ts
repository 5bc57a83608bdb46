/**
 * Saving an edited tariff as a version file: only a tariff the engine loads
 * is written, as `<product>/<version>.json`, and a version whose
 * `effective_from` has come is never overwritten — prices were, or may have
 * been, given with it; a change to it is a new version. A new version may
 * not take effect in the past either, and nothing is written through a
 * symbolic link or outside the directory (VersionFiles.ts). A tariff of a
 * product added as files (`--products DIR`) is its folder's: it is written as
 * `<product>/tariffs/<version>.json` of the products directory, and only when
 * the folder still passes the checker the service loads it with.
 */
import { ProductCatalogue, ProductCheck, TariffDocuments } from "@kasko/core/actuarial"
import type { Tariff } from "@kasko/core/actuarial"
import { folderCatalogue, type ProductFolder } from "../model/ProductFolders.js"
import { readTariffFiles } from "./TariffDirectory.js"
import {
  backdatedProblem,
  declared,
  outsideProblem,
  refused,
  type SaveOptions,
  type SaveOutcome,
  versionNameProblem,
  writeWhole
} from "./VersionFiles.js"

export type { SaveOptions, SaveOutcome } from "./VersionFiles.js"

/** Products added as files: the directory and its folders as read now. */
export interface ProductFolders {
  readonly directory: string
  readonly folders: ReadonlyArray<ProductFolder>
}

/** How a tariff version is saved: the rules every save follows, and the products added as files whose folders it may go to. */
export interface TariffSaveOptions extends SaveOptions {
  /** With products added as files, their tariffs are decoded against them and saved in their folders. */
  readonly products?: ProductFolders
}

const loadable = (source: string, catalogue: ProductCatalogue.Catalogue): Tariff.Tariff | string => {
  let document: unknown
  try {
    document = JSON.parse(source)
  } catch (error) {
    return `the text is not JSON: ${(error as Error).message}`
  }
  try {
    return TariffDocuments.decodeTariffs([document], catalogue)[0]!
  } catch (error) {
    return `the engine would not load it: ${(error as Error).message.replace(/^tariff document 0 /, "")}`
  }
}

/** Why the files holding the tariff's version may not be overwritten: one of them has taken effect, or may have. */
const inEffectProblem = (
  existing: ReadonlyArray<{ readonly file: string; readonly source: string }>,
  today: string
): string | undefined => {
  for (const file of existing) {
    const { effective_from } = declared(file.source)
    if (typeof effective_from !== "string")
      return `${file.file} does not say when it takes effect, so it is not overwritten — save the change under a new version`
    if (effective_from <= today)
      return `${file.file} took effect on ${effective_from}, on or before today (${today}): a version that has taken effect is never overwritten — save the change under a new version`
  }
  return undefined
}

/** The files already holding a version of the product: at `target`, or declaring the same product and version. */
const holding = (
  files: ReadonlyArray<{ readonly file: string; readonly source: string }>,
  target: string,
  tariff: Tariff.Tariff
) =>
  files.filter((file) => {
    const { product_name, version } = declared(file.source)
    return file.file === target || (product_name === tariff.product_name && version === tariff.version)
  })

/** Saves a tariff of a product folder into it, unless the rules, or the checker, forbid it. */
const saveInFolder = (
  products: ProductFolders,
  folder: ProductFolder,
  tariff: Tariff.Tariff,
  source: string,
  today: string,
  options: SaveOptions
): SaveOutcome => {
  const inFolder = (file: string) => `${folder.folder}/${file}`
  const target = inFolder(`${ProductCheck.TARIFF_FOLDER}/${tariff.version}.json`)
  const tariffs = [...folder.files]
    .filter(([file]) => file.startsWith(`${ProductCheck.TARIFF_FOLDER}/`))
    .map(([file, text]) => ({ file: inFolder(file), source: text }))
  const existing = holding(tariffs, target, tariff)
  const inEffect = inEffectProblem(existing, today)
  if (inEffect !== undefined) return refused("in-effect", inEffect)
  const file = existing[0]?.file ?? target
  const outside = outsideProblem(products.directory, file, "products directory")
  if (outside !== undefined) return refused("outside", outside)
  const backdated = existing.length === 0 ? backdatedProblem(tariff.effective_from, today, options) : undefined
  if (backdated !== undefined) return refused("backdated", backdated)
  // what the service would read next time: the folder with this tariff in its place
  const files = new Map(folder.files)
  files.set(file.slice(folder.folder.length + 1), source)
  const errors = ProductCheck.checkProductFolders(
    products.folders.map((candidate) => (candidate === folder ? { folder: folder.folder, files } : candidate))
  ).filter((finding) => finding.severity === "error")
  if (errors.length > 0)
    return refused(
      "invalid",
      `the products directory would not load with it: ${errors.map((finding) => `${finding.file}: ${finding.path === "" ? "" : `${finding.path}: `}${finding.message}`).join("; ")}`
    )
  writeWhole(products.directory, file, source)
  return { _tag: "Saved", file }
}

/** Writes the tariff as a version file of the directory (or of its product's folder), unless the rules forbid it. */
export const saveTariffVersion = (
  directory: string,
  source: string,
  today: string,
  options: TariffSaveOptions = {}
): SaveOutcome => {
  const products = options.products
  const catalogue = products === undefined ? ProductCatalogue.shipped : folderCatalogue(products.folders).catalogue
  const tariff = loadable(source, catalogue)
  if (typeof tariff === "string") return refused("invalid", tariff)
  const badName = versionNameProblem(tariff.version)
  if (badName !== undefined) return refused("invalid", badName)
  const folder = products?.folders.find((candidate) => candidate.folder === tariff.product_name)
  if (products !== undefined && folder !== undefined)
    return saveInFolder(products, folder, tariff, source, today, options)
  const target = `${tariff.product_name}/${tariff.version}.json`
  const existing = holding(readTariffFiles(directory), target, tariff)
  const inEffect = inEffectProblem(existing, today)
  if (inEffect !== undefined) return refused("in-effect", inEffect)
  const file = existing[0]?.file ?? target
  const outside = outsideProblem(directory, file, "tariff directory")
  if (outside !== undefined) return refused("outside", outside)
  const backdated = existing.length === 0 ? backdatedProblem(tariff.effective_from, today, options) : undefined
  if (backdated !== undefined) return refused("backdated", backdated)
  writeWhole(directory, file, source)
  return { _tag: "Saved", file }
}
