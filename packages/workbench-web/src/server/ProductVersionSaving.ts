/**
 * Saving an edited product document as a new version of its product folder: `<product>/versions/<version>.json` of
 * the products directory (`kasko workbench --products DIR`). Only a document that decodes and leaves the directory
 * without a checker error (the folder's files with it as that new file, as `kasko products check` and the service
 * will read them) is written; never over an existing version — `product.json` or any of `versions/` — and never on
 * the date another version takes effect; and, as for tariffs (VersionFiles.ts), no new version taking effect before
 * today, nothing through a symbolic link or outside the directory, the file written whole.
 */
import { ProductCheck } from "@kasko/core/actuarial"
import { Result } from "effect"
import { decodeProductText, type ProductFolder, withFile } from "../model/ProductFolders.js"
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

const findingText = (finding: ProductCheck.ProductFinding) =>
  `${finding.file}: ${finding.path === "" ? "" : `${finding.path}: `}${finding.message}`

/** Writes the document as a new version of its product's folder, unless the rules above forbid it. */
export const saveProductVersion = (
  directory: string,
  folders: ReadonlyArray<ProductFolder>,
  source: string,
  today: string,
  options: SaveOptions = {}
): SaveOutcome => {
  const decoded = decodeProductText(source)
  if (Result.isFailure(decoded)) return refused("invalid", `the product document ${decoded.failure}`)
  const document = decoded.success
  const folder = folders.find((candidate) => candidate.folder === document.product_name)
  if (folder === undefined)
    return refused(
      "invalid",
      `${directory} has no product folder ${document.product_name}: a version is saved beside its product's document`
    )
  const badName = versionNameProblem(document.version)
  if (badName !== undefined) return refused("invalid", badName)
  const inFolder = `${ProductCheck.VERSION_FOLDER}/${document.version}.json`
  const file = `${folder.folder}/${inFolder}`
  for (const [name, text] of folder.files) {
    if (!ProductCheck.isProductFile(name)) continue
    const { version, effective_from } = declared(text)
    const existing = `${folder.folder}/${name}`
    if (existing === file)
      return refused(
        "in-effect",
        `${existing} is there already: a version is never overwritten — save the change under a new version`
      )
    if (version === document.version)
      return refused(
        "in-effect",
        `${existing} holds version ${document.version} of ${document.product_name} already: a version is never overwritten — save the change under a new version`
      )
    if (effective_from === document.effective_from)
      return refused(
        "in-effect",
        `${existing} takes effect on ${document.effective_from} already: one version of a product takes effect on a date`
      )
  }
  const errors = ProductCheck.checkProductFolders(withFile(folders, folder.folder, inFolder, source)).filter(
    (finding) => finding.severity === "error"
  )
  if (errors.length > 0)
    return refused("invalid", `the product folder would not pass the check: ${errors.map(findingText).join("; ")}`)
  const outside = outsideProblem(directory, file, "products directory")
  if (outside !== undefined) return refused("outside", outside)
  const backdated = backdatedProblem(document.effective_from, today, options)
  if (backdated !== undefined) return refused("backdated", backdated)
  writeWhole(directory, file, source)
  return { _tag: "Saved", file }
}
