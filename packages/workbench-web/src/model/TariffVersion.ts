/**
 * A tariff version as the page holds it: the file's text, and the tariff the
 * core decodes and compiles from it — or the reason it does not, so a broken
 * file can still be opened in the editor and fixed.
 */
import { ProductCatalogue, type Tariff, TariffDocuments } from "@kasko/core/actuarial"

export interface TariffVersion {
  /** The file below the tariff directory, or `DRAFT_KEY` for the editor's unsaved text. */
  readonly key: string
  readonly source: string
  readonly tariff?: Tariff.Tariff
  /** Why the text is not a tariff (not JSON, does not decode, cannot be compiled). */
  readonly problem?: string
  /** A proposal loaded beside the directory: chosen by name, never the version in force. */
  readonly proposal?: true
}

/** The key of the editor's unsaved text among the versions. */
export const DRAFT_KEY = "(draft)"

/**
 * Decodes and compiles a tariff text exactly as `kasko price --tariff` loads a file, against the catalogue's products
 * (the shipped ones unless given): a tariff is planned over its product's document.
 */
export const tariffVersionOf = (
  key: string,
  source: string,
  proposal = false,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): TariffVersion => {
  const base = proposal ? { key, source, proposal: true as const } : { key, source }
  let document: unknown
  try {
    document = JSON.parse(source)
  } catch (error) {
    return { ...base, problem: `is not JSON: ${(error as Error).message}` }
  }
  try {
    const [tariff] = TariffDocuments.decodeTariffs([document], catalogue)
    return { ...base, tariff: tariff! }
  } catch (error) {
    return { ...base, problem: (error as Error).message.replace(/^tariff document 0 /, "") }
  }
}

/** The key of a proposal among the versions: apart from the directory's files, which are paths ending in `.json`. */
export const proposalKey = (file: string): string => `${file} (proposal)`

/** A version's name in lists: `insurance-car-leasing v1 (from 2026-01-01)`. */
export const versionLabel = (version: TariffVersion): string => {
  const draft = version.key === DRAFT_KEY ? "draft, unsaved: " : ""
  if (version.tariff === undefined) return `${draft}${version.key} (does not load)`
  const { product_name, version: name, effective_from } = version.tariff
  return `${draft}${product_name} ${name} (from ${effective_from}${version.proposal ? ", a proposal" : ""})`
}

/** The loadable versions of a product, oldest first. */
export const versionsOf = (
  versions: ReadonlyArray<TariffVersion>,
  productName: string
): Array<TariffVersion & { readonly tariff: Tariff.Tariff }> =>
  versions
    .filter(
      (version): version is TariffVersion & { readonly tariff: Tariff.Tariff } =>
        version.tariff?.product_name === productName
    )
    .sort((a, b) => a.tariff.effective_from.localeCompare(b.tariff.effective_from) || a.key.localeCompare(b.key))
