/**
 * The workspace as the page holds it: the server's tariff files, golden tables and, started with `--products DIR`,
 * product folders, read once on load and again after a save. The folders make the page's catalogue (the shipped
 * products and theirs, as `kasko serve --products` loads them); the tariffs are decoded and compiled, and the
 * golden tables parsed, against a catalogue — the workspace's, or one with the product editor's draft in it — once
 * per catalogue.
 */
import type { ProductCatalogue } from "@kasko/core/actuarial"
import { parseGoldenTable, type GoldenCase } from "@kasko/workbench/browser"
import { Schema } from "effect"
import { folderCatalogue, isFolderTariffFile, type ProductFolder, productVersionKey } from "../model/ProductFolders.js"
import { proposalKey, tariffVersionOf, type TariffVersion } from "../model/TariffVersion.js"
import { type TariffFile, WorkspaceDocument } from "../model/WorkspaceDocument.js"

export interface GoldenTable {
  readonly file: string
  readonly rows: ReadonlyArray<GoldenCase>
  /** Why the CSV could not be read. */
  readonly problem?: string
}

/** The products directory the workbench was started with, and its folders as read. */
export interface WorkspaceProducts {
  readonly directory: string
  readonly folders: ReadonlyArray<ProductFolder>
}

export interface Workspace {
  readonly today: string
  readonly directory: string
  /** The file names of the proposals loaded beside the directory. */
  readonly proposals: ReadonlyArray<string>
  /** Absent when the workbench was started without `--products`. */
  readonly products?: WorkspaceProducts
  /** The shipped products and the products directory's. */
  readonly catalogue: ProductCatalogue.Catalogue
  /** Product folders kept out of the catalogue since the server checked them at start, and why. */
  readonly catalogueProblems: ReadonlyArray<string>
  /** The saved versions (the directory's, the proposals, the product folders'), decoded against a catalogue. */
  readonly versionsFor: (catalogue: ProductCatalogue.Catalogue) => ReadonlyArray<TariffVersion>
  /** The golden tables with a catalogue's parameters as their columns, parsed when first asked for. */
  readonly goldenTables: (catalogue: ProductCatalogue.Catalogue) => ReadonlyArray<GoldenTable>
}

const goldenTableOf = (file: string, csv: string, catalogue: ProductCatalogue.Catalogue): GoldenTable => {
  try {
    return { file, rows: parseGoldenTable(csv, catalogue) }
  } catch (error) {
    return { file, rows: [], problem: (error as Error).message }
  }
}

/** What a catalogue makes of the workspace, made once per catalogue (a catalogue is compared by identity). */
const perCatalogue = <A>(make: (catalogue: ProductCatalogue.Catalogue) => A) => {
  const made = new WeakMap<ProductCatalogue.Catalogue, A>()
  return (catalogue: ProductCatalogue.Catalogue): A => {
    if (!made.has(catalogue)) made.set(catalogue, make(catalogue))
    return made.get(catalogue)!
  }
}

const productNameOf = (source: string): unknown => {
  try {
    return (JSON.parse(source) as { product_name?: unknown } | null)?.product_name
  } catch {
    return undefined
  }
}

/**
 * The tariff files priced: the directory's and the proposals, but for the products of the product folders, whose
 * saved tariffs are their folders' (as `kasko serve --products` keeps only the shipped tariffs of the products it
 * does not replace); a proposal of such a product is kept, for Compare and Impact to try.
 */
const tariffFilesOf = (
  files: ReadonlyArray<TariffFile>,
  products: WorkspaceProducts | undefined
): ReadonlyArray<TariffFile> => {
  if (products === undefined) return files
  const folders = new Set(products.folders.map(({ folder }) => folder))
  return [
    ...files.filter((file) => {
      const name = productNameOf(file.source)
      return file.proposal === true || typeof name !== "string" || !folders.has(name)
    }),
    ...products.folders.flatMap(({ folder, files: folderFiles }) =>
      [...folderFiles].flatMap(([file, source]) =>
        isFolderTariffFile(file) ? [{ file: productVersionKey(folder, file), source }] : []
      )
    )
  ]
}

/** Fetches the workspace from the server and decodes it. */
export const loadWorkspace = async (): Promise<Workspace> => {
  // the same request as index.html's preload, so that the preloaded answer is used (the server forbids caching it)
  const response = await fetch("/api/workspace")
  if (!response.ok) throw new Error(`the workbench server answered ${response.status}: ${await response.text()}`)
  const document = Schema.decodeUnknownSync(WorkspaceDocument)(await response.json())
  const products =
    document.products === undefined
      ? undefined
      : {
          directory: document.products.directory,
          folders: document.products.folders.map(({ folder, files }) => ({
            folder,
            files: new Map(files.map(({ file, source }) => [file, source] as const))
          }))
        }
  const { catalogue, problems } = folderCatalogue(products?.folders ?? [])
  const tariffFiles = tariffFilesOf(document.tariffs, products)
  return {
    today: document.today,
    directory: document.tariff_directory,
    proposals: document.tariffs.flatMap((file) => (file.proposal ? [file.file] : [])),
    ...(products === undefined ? {} : { products }),
    catalogue,
    catalogueProblems: problems,
    versionsFor: perCatalogue((against) =>
      tariffFiles.map((file) =>
        file.proposal
          ? tariffVersionOf(proposalKey(file.file), file.source, true, against)
          : tariffVersionOf(file.file, file.source, false, against)
      )
    ),
    goldenTables: perCatalogue((against) =>
      document.golden_tables.map((table) => goldenTableOf(table.file, table.csv, against))
    )
  }
}

/** Every golden row of the workspace, in table order, read with a catalogue's parameters. */
export const goldenRows = (workspace: Workspace, catalogue: ProductCatalogue.Catalogue): Array<GoldenCase> =>
  workspace.goldenTables(catalogue).flatMap((table) => table.rows)
