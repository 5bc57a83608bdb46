/**
 * What the server of `kasko workbench` sends the page and answers a save
 * with: the tariff files of the directory as written (the page decodes them
 * with the core, as `kasko price --tariff` would), the golden tables as CSV,
 * and, started with `--products DIR`, the files of its product folders.
 */
import { Schema } from "effect"

/** A tariff file of the directory (its path below it) or a proposal loaded beside it (its name), and its text. */
export const TariffFile = Schema.Struct({
  file: Schema.String,
  source: Schema.String,
  /** A proposal: offered in every view, never the version in force, read only. */
  proposal: Schema.optionalKey(Schema.Literal(true))
})
export type TariffFile = typeof TariffFile.Type

/** A golden table (or a file of cases without expectations), as CSV. */
export const GoldenTableFile = Schema.Struct({
  file: Schema.String,
  csv: Schema.String
})
export type GoldenTableFile = typeof GoldenTableFile.Type

/** A file of a product folder: its path in the folder (`product.json`, `tariffs/v1.json`) and its text. */
export const FolderFile = Schema.Struct({
  file: Schema.String,
  source: Schema.String
})

/** A product folder of the products directory: its name and its JSON files, as the service reads them. */
export const ProductFolderDocument = Schema.Struct({
  folder: Schema.String,
  files: Schema.Array(FolderFile)
})

/** `GET /api/workspace`: everything the page works on, read fresh from disk. */
export const WorkspaceDocument = Schema.Struct({
  /** The server's date: the default pricing date, and the date the save rule compares `effective_from` with. */
  today: Schema.String,
  tariff_directory: Schema.String,
  tariffs: Schema.Array(TariffFile),
  golden_tables: Schema.Array(GoldenTableFile),
  /** The products directory the workbench was started with (`--products DIR`); absent without one. */
  products: Schema.optionalKey(
    Schema.Struct({ directory: Schema.String, folders: Schema.Array(ProductFolderDocument) })
  )
})
export type WorkspaceDocument = typeof WorkspaceDocument.Type

/** `POST /api/tariffs` and `POST /api/products`: the file a new version was written to, or why it was not. */
export const SaveAnswer = Schema.Union([
  Schema.Struct({ saved: Schema.String }),
  Schema.Struct({ refused: Schema.String })
])
export type SaveAnswer = typeof SaveAnswer.Type
