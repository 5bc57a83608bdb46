/**
 * The product editor's text as a draft: a version of its product, standing where it would stand in its folder (in
 * place of the version it declares, or as the new `versions/<version>.json` saving it writes), checked as the products
 * directory would be then (`ProductCheck.checkProductFolders`, the check `kasko serve --products` refuses a directory
 * by), and — once it decodes and the check finds no error in it — put among its product's versions in the catalogue,
 * so that every other view prices it on the dates it is in force, with its tariffs, as the tariff editor's draft is
 * offered as a version.
 */
import { type ProductCatalogue, ProductCheck, type ProductDocument } from "@kasko/core/actuarial"
import { Result } from "effect"
import {
  catalogueWith,
  decodeProductText,
  placeOfText,
  type ProductFolder,
  versionsWith,
  withFile
} from "./ProductFolders.js"

export interface ProductDraft {
  /** The product folder the text was opened from, and is checked in. */
  readonly folder: string
  /** The file of the folder it was opened from (`product.json`, `versions/v2.json`). */
  readonly opened: string
  /** Where it stands in the folder: the file of the version it declares, or the one saving it would write. */
  readonly file: string
  readonly source: string
  /** Every finding of the check with the text where it stands, errors first. */
  readonly findings: ReadonlyArray<ProductCheck.ProductFinding>
  /** The document, once the other views price with it. */
  readonly document?: ProductDocument.ProductDocument
  /** The catalogue with the draft among its product's versions, once the other views price with it. */
  readonly catalogue?: ProductCatalogue.Catalogue
  /** Why the other views do not price with it. */
  readonly problem?: string
}

/** The draft's file as the checker names it: `<folder>/<file>`. */
export const draftFile = (draft: Pick<ProductDraft, "folder" | "file">): string => `${draft.folder}/${draft.file}`

const counted = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`

/** The editor's text checked in its folder, and offered in the base catalogue when nothing in it is an error. */
export const productDraftOf = (
  folders: ReadonlyArray<ProductFolder>,
  folder: string,
  opened: string,
  source: string,
  base: ProductCatalogue.Catalogue
): ProductDraft => {
  const saved = folders.find((candidate) => candidate.folder === folder) ?? { folder, files: new Map() }
  const file = placeOfText(saved, opened, source)
  const findings = ProductCheck.checkProductFolders(withFile(folders, folder, file, source))
  const draft = { folder, opened, file, source, findings }
  const errors = findings.filter((finding) => finding.severity === "error" && finding.file === draftFile(draft))
  if (errors.length > 0) return { ...draft, problem: `it has ${counted(errors.length, "error")}` }
  const decoded = decodeProductText(source)
  if (Result.isFailure(decoded)) return { ...draft, problem: `it ${decoded.failure}` }
  const catalogue = catalogueWith(versionsWith(saved, file, source), base)
  if (Result.isFailure(catalogue)) return { ...draft, problem: catalogue.failure }
  return { ...draft, document: decoded.success, catalogue: catalogue.success }
}

/** The draft's findings, errors and warnings apart. */
export const findingsBySeverity = (draft: ProductDraft) => ({
  errors: draft.findings.filter((finding) => finding.severity === "error"),
  warnings: draft.findings.filter((finding) => finding.severity === "warning")
})
