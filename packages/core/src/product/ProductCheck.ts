/**
 * A product folder, checked before anything loads it (issue 44): `<product>/product.json`, the product document, more
 * versions of it as `<product>/versions/<version>.json`, and `<product>/tariffs/<version>.json`, its tariff versions. Every problem at once, each naming its file, its
 * JSON path and what is wrong — errors, which must keep the folder from loading, then warnings, which load but
 * look like mistakes (a word without its English translation among them). Pure: the caller reads the files and hands over their text.
 * @module
 */
import { Result, Schema, SchemaParser } from "effect"
import { documentProblems } from "../input/DocumentProblems.js"
import { fieldPath } from "../input/FieldPath.js"
import { parseJsonText } from "../input/JsonText.js"
import { planOverFacts } from "../pricing/TariffPlans.js"
import { AnyProductTariff, FACT_NAMES } from "../pricing/Tariff.js"
import { type ProductParts, productConsistency } from "./ProductConsistency.js"
import { PRODUCT_FACT_NAMES, SHIPPED_PRODUCTS } from "./ProductCatalogue.js"
import { ProductDocument } from "./ProductDocument.js"
import { missingTranslations } from "./ProductTranslations.js"
import {
  coveragesNotDescribed,
  factsNotGiven,
  type LoadedProduct,
  type LoadedTariff,
  optionsNoRuleNames,
  versionsPricedBy
} from "./ProductTariffCheck.js"

/** A problem of a product folder. */
export interface ProductFinding {
  readonly severity: "error" | "warning"
  /** The file, from the folder holding the product's folder: `insurance-car-leasing/tariffs/v1.json`. */
  readonly file: string
  /** Where in the file: a JSON path (`parameters[2].options[1].id`), "" for the whole file. */
  readonly path: string
  /** Where in the text, for what is wrong in the text itself (not JSON, a member written twice). */
  readonly line?: number
  readonly column?: number
  readonly message: string
}

/** The product document's file in a product folder: a version of the product. */
export const PRODUCT_FILE = "product.json"
/** The folder of a product folder holding more versions of its product document, one `<version>.json` each. */
export const VERSION_FOLDER = "versions"
/** The folder of a product folder holding its tariff versions, one `<version>.json` each. */
export const TARIFF_FOLDER = "tariffs"

const TARIFF_FILE = new RegExp(`^${TARIFF_FOLDER}/[^/]+\\.json$`)
const VERSION_FILE = new RegExp(`^${VERSION_FOLDER}/[^/]+\\.json$`)

/** Whether a file of a product folder is a version of its product document: `product.json` or `versions/<version>.json`. */
export const isProductFile = (file: string): boolean => file === PRODUCT_FILE || VERSION_FILE.test(file)

const STRICT = { errors: "all", onExcessProperty: "error", reportInput: true } as const
const decodeProduct = SchemaParser.decodeUnknownResult(ProductDocument, STRICT)
const decodeTariff = SchemaParser.decodeUnknownResult(AnyProductTariff, STRICT)

const PART_NAMES = [
  "parameters",
  "features",
  "variants",
  "vehicle_codes",
  "party_roles",
  "coverages"
] as const satisfies ReadonlyArray<keyof ProductParts>

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Each part of the document that decodes on its own (unknown members let through: the strict decoding names them). */
const partsOf = (document: unknown): ProductParts => {
  if (!isRecord(document)) return {}
  const parts: Record<string, unknown> = {}
  for (const name of PART_NAMES) {
    const decoded = Schema.decodeUnknownResult(ProductDocument.fields[name] as Schema.Codec<unknown>)(document[name])
    if (Result.isSuccess(decoded)) parts[name] = decoded.success
  }
  return parts as ProductParts
}

const textOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/**
 * Checks the files of a product folder: `folder` is its name, `files` the text of each JSON file by its path in it.
 * The product document is `product.json` and any `versions/<version>.json` beside it, each a whole version.
 */
export const checkProductFolder = (folder: string, files: ReadonlyMap<string, string>): Array<ProductFinding> => {
  const findings: Array<ProductFinding> = []
  const report = (file: string, found: ReadonlyArray<Omit<ProductFinding, "file">>) =>
    findings.push(...found.map((finding) => ({ ...finding, file: `${folder}/${file}` })))
  const documents = new Map<string, unknown>()
  for (const file of [...files.keys()].sort()) {
    if (!isProductFile(file) && !TARIFF_FILE.test(file)) {
      report(file, [
        {
          severity: "warning",
          path: "",
          message: `is not read: a product folder holds ${PRODUCT_FILE}, ${VERSION_FOLDER}/<version>.json and ${TARIFF_FOLDER}/<version>.json`
        }
      ])
      continue
    }
    const parsed = parseJsonText(files.get(file)!)
    if (Result.isFailure(parsed)) {
      report(file, [{ severity: "error", path: "", ...parsed.failure }])
      continue
    }
    report(
      file,
      parsed.success.repeated.map(({ path, line, column }) => ({
        severity: "error",
        path: fieldPath(path),
        line,
        column,
        message: "is written twice in one object: JSON keeps the last and drops the other"
      }))
    )
    documents.set(file, parsed.success.value)
  }

  const productFiles = [...files.keys()]
    .filter(isProductFile)
    .sort((a, b) => (a === PRODUCT_FILE ? -1 : b === PRODUCT_FILE ? 1 : a < b ? -1 : 1))
  if (productFiles.length === 0)
    report(PRODUCT_FILE, [{ severity: "error", path: "", message: "is missing: a product folder holds its document" }])
  const products: Array<LoadedProduct> = []
  for (const file of productFiles.filter((name) => documents.has(name))) {
    const document = documents.get(file)
    const productName = isRecord(document) ? textOf(document["product_name"]) : undefined
    const decoded = decodeProduct(document)
    if (Result.isFailure(decoded))
      report(
        file,
        documentProblems(decoded.failure).map((problem) => ({ severity: "error", ...problem }))
      )
    if (productName !== undefined && productName !== folder)
      report(file, [
        {
          severity: "error",
          path: "product_name",
          message: `is "${productName}", but the folder is named "${folder}": a product's folder takes its name`
        }
      ])
    const parts = partsOf(document)
    report(file, productConsistency(parts))
    if (Result.isSuccess(decoded))
      report(
        file,
        missingTranslations(decoded.success, "en").map((path) => ({
          severity: "warning",
          path,
          message: "is missing: an answer in English (Accept-Language: en) says the Danish words here"
        }))
      )
    const loaded: LoadedProduct = {
      file,
      parts,
      version: isRecord(document) ? textOf(document["version"]) : undefined,
      effective_from: Result.isSuccess(decoded) ? decoded.success.effective_from : undefined
    }
    for (const key of ["version", "effective_from"] as const) {
      const earlier = products.find((product) => product[key] !== undefined && product[key] === loaded[key])
      if (earlier !== undefined)
        report(file, [
          {
            severity: "error",
            path: key,
            message: `is ${loaded[key]}, as in ${earlier.file}: ${key === "version" ? "a version is given once" : "one version takes effect on a date"}`
          }
        ])
    }
    products.push(loaded)
  }
  // a quote's product name tells its variant apart in every version: a version may rename a variant's quoted name,
  // never give one to the other variant
  const variantOfQuotedName = new Map<string, { readonly variant: string; readonly file: string }>()
  for (const { file, parts } of products)
    for (const [index, variant] of (parts.variants ?? []).entries()) {
      const earlier = variantOfQuotedName.get(variant.quoted_product_name)
      if (earlier !== undefined && earlier.file !== file && earlier.variant !== variant.name)
        report(file, [
          {
            severity: "error",
            path: fieldPath(["variants", index, "quoted_product_name"]),
            message: `"${variant.quoted_product_name}" is the quoted product name of the ${earlier.variant} variant in ${earlier.file}: a quote's product name tells its variant apart in every version`
          }
        ])
      else if (earlier === undefined)
        variantOfQuotedName.set(variant.quoted_product_name, { variant: variant.name, file })
    }
  const productName = products
    .map(({ file }) => documents.get(file))
    .map((document) => (isRecord(document) ? textOf(document["product_name"]) : undefined))
    .find((name) => name !== undefined)

  const tariffFiles = [...files.keys()].filter((file) => TARIFF_FILE.test(file)).sort()
  if (tariffFiles.length === 0)
    report(TARIFF_FOLDER, [
      {
        severity: "error",
        path: "",
        message: `holds no tariff: a product is priced by its tariff versions, ${TARIFF_FOLDER}/<version>.json`
      }
    ])
  const tariffs: Array<LoadedTariff> = []
  for (const file of tariffFiles.filter((name) => documents.has(name))) {
    const raw = documents.get(file)
    const named = isRecord(raw) ? textOf(raw["product_name"]) : undefined
    if (named !== undefined && productName !== undefined && named !== productName)
      report(file, [
        {
          severity: "error",
          path: "product_name",
          message: `is "${named}": a tariff in this folder prices ${productName}`
        }
      ])
    const decoded = decodeTariff(raw)
    if (Result.isFailure(decoded)) {
      report(
        file,
        documentProblems(decoded.failure).map((problem) => ({ severity: "error", ...problem }))
      )
      continue
    }
    const tariff = decoded.success
    try {
      // over every parameter as a fact: which of them the product gives its tariff is said by factsNotGiven below
      planOverFacts(tariff, [
        ...new Set([
          ...PRODUCT_FACT_NAMES,
          ...products.flatMap(({ parts }) => (parts.parameters ?? []).map((parameter) => parameter.name)),
          ...FACT_NAMES
        ])
      ])
    } catch (error) {
      report(file, [{ severity: "error", path: "", message: `cannot be compiled: ${(error as Error).message}` }])
      continue
    }
    for (const key of ["version", "effective_from"] as const) {
      const earlier = tariffs.find((loaded) => loaded.tariff[key] === tariff[key])
      if (earlier !== undefined)
        report(file, [
          {
            severity: "error",
            path: key,
            message: `is ${tariff[key]}, as in ${earlier.file}: ${key === "version" ? "a version is given once" : "one version takes effect on a date"}`
          }
        ])
    }
    const first = products
      .flatMap((product) => (product.effective_from === undefined ? [] : [product]))
      .sort((a, b) => (a.effective_from! < b.effective_from! ? -1 : 1))[0]
    if (first !== undefined && tariff.effective_from < first.effective_from!)
      report(file, [
        {
          severity: "error",
          path: "effective_from",
          message: `is ${tariff.effective_from}, before the product's first version takes effect (${first.effective_from}, ${first.file}): a tariff prices its product once it is sold`
        }
      ])
    tariffs.push({ file, tariff })
  }

  // each tariff against each version of the product it prices with
  for (const loaded of tariffs)
    for (const product of versionsPricedBy(loaded, tariffs, products)) {
      if (product.parts.coverages !== undefined)
        report(loaded.file, coveragesNotDescribed(product.parts.coverages, product.file, loaded))
      if (product.parts.parameters !== undefined)
        report(loaded.file, factsNotGiven(product.parts.parameters, product.file, loaded))
    }
  for (const product of products)
    report(
      product.file,
      optionsNoRuleNames(
        product.parts,
        tariffs.filter((loaded) => versionsPricedBy(loaded, tariffs, products).includes(product))
      )
    )

  const rank = (finding: ProductFinding) =>
    (finding.severity === "error" ? 0 : 2) + (isProductFile(finding.file.slice(folder.length + 1)) ? 0 : 1)
  return findings
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || compareFiles(a.finding, b.finding) || a.order - b.order)
    .map(({ finding }) => finding)
}

const compareFiles = (a: ProductFinding, b: ProductFinding): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)

/**
 * The quoted product names a folder's documents (each version) give their variants, each with its file and path, as
 * far as they are written.
 */
const quotedNamesIn = (
  files: ReadonlyMap<string, string>
): Array<{ readonly name: string; readonly file: string; readonly path: string }> =>
  [...files.keys()].filter(isProductFile).flatMap((file) => {
    const parsed = parseJsonText(files.get(file)!)
    if (Result.isFailure(parsed) || !isRecord(parsed.success.value)) return []
    const variants = parsed.success.value["variants"]
    return Array.isArray(variants)
      ? variants.flatMap((variant, index) =>
          isRecord(variant) && typeof variant["quoted_product_name"] === "string"
            ? [
                {
                  name: variant["quoted_product_name"],
                  file,
                  path: fieldPath(["variants", index, "quoted_product_name"])
                }
              ]
            : []
        )
      : []
  })

/**
 * Several product folders, each checked as `checkProductFolder` does, and together: a quote's product name tells
 * its product and variant apart, so no two products — nor one of them and a shipped product it does not replace
 * (a folder named like a shipped product replaces it) — give a variant the same one.
 */
export const checkProductFolders = (
  folders: ReadonlyArray<{ readonly folder: string; readonly files: ReadonlyMap<string, string> }>
): Array<ProductFinding> => {
  const findings = folders.flatMap(({ folder, files }) => checkProductFolder(folder, files))
  const owners = new Map<string, string>()
  for (const shipped of SHIPPED_PRODUCTS)
    if (!folders.some(({ folder }) => folder === shipped.product_name))
      for (const variant of shipped.variants)
        owners.set(variant.quoted_product_name, `${shipped.product_name}, shipped`)
  for (const { folder, files } of folders)
    for (const { name, file, path } of quotedNamesIn(files)) {
      const owner = owners.get(name)
      if (owner !== undefined && owner !== folder)
        findings.push({
          severity: "error",
          file: `${folder}/${file}`,
          path,
          message: `"${name}" is a quoted product name of ${owner} too: a quote's product name tells its product and variant apart`
        })
      else owners.set(name, folder)
    }
  return findings
}
