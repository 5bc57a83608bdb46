/**
 * A product folder, checked before anything loads it (issue 44): `<product>/product.json`, the product document,
 * and `<product>/tariffs/<version>.json`, its tariff versions. Every problem at once, each naming its file, its
 * JSON path and what is wrong — errors, which must keep the folder from loading, then warnings, which load but
 * look like mistakes. Pure: the caller reads the files and hands over their text.
 */
import { Result, Schema, SchemaParser } from "effect"
import { documentProblems } from "../input/DocumentProblems.js"
import { fieldPath } from "../input/FieldPath.js"
import { parseJsonText } from "../input/JsonText.js"
import { planOverFacts } from "../pricing/PricingPlan.js"
import { AnyProductTariff, FACT_NAMES, type Tariff } from "../pricing/Tariff.js"
import { factConditionsOf } from "../pricing/TariffCompiler.js"
import { type ProductParts, productConsistency } from "./ProductConsistency.js"
import { PRODUCT_FACT_NAMES, SHIPPED_PRODUCTS } from "./ProductCatalogue.js"
import { ProductDocument } from "./ProductDocument.js"
import { valuesComparedWith } from "./VariantReach.js"

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

/** The product document's file in a product folder. */
export const PRODUCT_FILE = "product.json"
/** The folder of a product folder holding its tariff versions, one `<version>.json` each. */
export const TARIFF_FOLDER = "tariffs"

const TARIFF_FILE = new RegExp(`^${TARIFF_FOLDER}/[^/]+\\.json$`)

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

/** The values a tariff's rules compare a fact with. */
const valuesNamed = (tariff: Tariff, fact: string): Array<unknown> | undefined => {
  const conditions = tariff.rules
    .flatMap((rule) => factConditionsOf(rule.conditions))
    .filter((condition) => condition.fact === fact)
  return conditions.length === 0
    ? undefined
    : conditions.flatMap((condition) => (Array.isArray(condition.value) ? condition.value : [condition.value]))
}

const variantRuleValues = (parts: ProductParts, fact: string): Array<unknown> =>
  (parts.variants ?? []).flatMap((variant) =>
    variant.when === undefined ? [] : valuesComparedWith(variant.when, fact)
  )

interface LoadedTariff {
  readonly file: string
  readonly tariff: Tariff
}

/**
 * Options no rule of a tariff names, of a parameter its rules read. A tariff reads the product's enum parameters
 * marked as facts one by one; the other parameters reach it only through the variant, so the values the variant
 * rule names count as named when the tariff reads the variant.
 */
const optionsNoRuleNames = (
  parts: ProductParts,
  tariffs: ReadonlyArray<LoadedTariff>
): Array<Omit<ProductFinding, "file">> =>
  tariffs.flatMap(({ file, tariff }) =>
    (parts.parameters ?? []).flatMap((parameter, index) => {
      if (parameter.type !== "enum" || parameter.fact !== true) return []
      const named = valuesNamed(tariff, parameter.name)
      if (named === undefined) return []
      const readsVariant = valuesNamed(tariff, "variant") !== undefined
      // the variant rule the Schema refused cannot say which values it names
      if (readsVariant && parts.variants === undefined) return []
      const throughVariant = readsVariant ? variantRuleValues(parts, parameter.name) : []
      const all = new Set([...named, ...throughVariant])
      return (parameter.options ?? []).flatMap((option, position) =>
        all.has(option.id)
          ? []
          : [
              {
                severity: "warning" as const,
                path: fieldPath(["parameters", index, "options", position, "id"]),
                message: `no rule of ${file} names "${option.id}", though its rules price by ${parameter.name}`
              }
            ]
      )
    })
  )

/**
 * Facts a tariff reads that its product does not give it: the product, variant and feature, and the parameters
 * marked `"fact": true`; a premium rated on the vehicle's price needs the number fact `vehicle_price`.
 */
const factsNotGiven = (
  parameters: NonNullable<ProductParts["parameters"]>,
  { tariff }: LoadedTariff
): Array<Omit<ProductFinding, "file">> => {
  const given = new Set<string>([
    ...PRODUCT_FACT_NAMES,
    ...parameters.flatMap((parameter) => (parameter.fact === true ? [parameter.name] : []))
  ])
  const meaning = (fact: string) =>
    parameters.some((parameter) => parameter.name === fact)
      ? `mark the parameter ${fact} "fact": true in product.json`
      : "the product has no parameter of that name"
  return tariff.rules.flatMap((rule, index) => {
    const unknown = [...new Set(factConditionsOf(rule.conditions).map((condition) => condition.fact))].filter(
      (fact) => !given.has(fact)
    )
    const pricedOnVehiclePrice =
      rule.event.type === "add_coverage" &&
      rule.event.params.premium.type === "vehicle_price_bands" &&
      !parameters.some(
        (parameter) =>
          parameter.name === "vehicle_price" &&
          parameter.type === "number" &&
          parameter.fact === true &&
          (parameter.required || parameter.default !== undefined)
      )
    return [
      ...unknown.map((fact) => ({
        severity: "error" as const,
        path: fieldPath(["rules", index, "conditions"]),
        message: `reads fact "${fact}", which the product does not give its tariff: ${meaning(fact)}`
      })),
      ...(pricedOnVehiclePrice
        ? [
            {
              severity: "error" as const,
              path: fieldPath(["rules", index, "event", "params", "premium"]),
              message:
                'rates a premium on the vehicle\'s price: the product needs the number parameter vehicle_price, "fact": true, required or with a default'
            }
          ]
        : [])
    ]
  })
}

/** Coverages and listed charges a tariff names that the product's `coverages` do not put in words. */
const coveragesNotDescribed = (
  coverages: NonNullable<ProductParts["coverages"]>,
  { tariff }: LoadedTariff
): Array<Omit<ProductFinding, "file">> => {
  const reported = new Set<string>()
  return tariff.rules.flatMap((rule, index) => {
    const event = rule.event
    const named =
      event.type === "add_coverage"
        ? { name: event.params.coverage, key: "coverage", what: "adds coverage" }
        : event.type === "list_charge_as_coverage"
          ? { name: event.params.charge, key: "charge", what: "lists charge" }
          : undefined
    if (named === undefined || Object.hasOwn(coverages, named.name) || reported.has(named.name)) return []
    reported.add(named.name)
    return [
      {
        severity: "warning" as const,
        path: fieldPath(["rules", index, "event", "params", named.key]),
        message: `${named.what} "${named.name}", which the coverages of ${PRODUCT_FILE} do not describe: its documents have no words for it`
      }
    ]
  })
}

/** Checks the files of a product folder: `folder` is its name, `files` the text of each JSON file by its path in it. */
export const checkProductFolder = (folder: string, files: ReadonlyMap<string, string>): Array<ProductFinding> => {
  const findings: Array<ProductFinding> = []
  const report = (file: string, found: ReadonlyArray<Omit<ProductFinding, "file">>) =>
    findings.push(...found.map((finding) => ({ ...finding, file: `${folder}/${file}` })))
  const documents = new Map<string, unknown>()
  for (const file of [...files.keys()].sort()) {
    if (file !== PRODUCT_FILE && !TARIFF_FILE.test(file)) {
      report(file, [
        {
          severity: "warning",
          path: "",
          message: `is not read: a product folder holds ${PRODUCT_FILE} and ${TARIFF_FOLDER}/<version>.json`
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

  const document = documents.get(PRODUCT_FILE)
  const productName = isRecord(document) ? textOf(document["product_name"]) : undefined
  const parts = partsOf(document)
  if (!files.has(PRODUCT_FILE)) {
    report(PRODUCT_FILE, [{ severity: "error", path: "", message: "is missing: a product folder holds its document" }])
  } else if (documents.has(PRODUCT_FILE)) {
    const decoded = decodeProduct(document)
    if (Result.isFailure(decoded))
      report(
        PRODUCT_FILE,
        documentProblems(decoded.failure).map((problem) => ({ severity: "error", ...problem }))
      )
    if (productName !== undefined && productName !== folder)
      report(PRODUCT_FILE, [
        {
          severity: "error",
          path: "product_name",
          message: `is "${productName}", but the folder is named "${folder}": a product's folder takes its name`
        }
      ])
    report(PRODUCT_FILE, productConsistency(parts))
  }

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
          ...(parts.parameters ?? []).map((parameter) => parameter.name),
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
    tariffs.push({ file, tariff })
  }

  if (parts.coverages !== undefined)
    for (const loaded of tariffs) report(loaded.file, coveragesNotDescribed(parts.coverages, loaded))
  if (parts.parameters !== undefined)
    for (const loaded of tariffs) report(loaded.file, factsNotGiven(parts.parameters, loaded))
  report(PRODUCT_FILE, optionsNoRuleNames(parts, tariffs))

  const rank = (finding: ProductFinding) =>
    (finding.severity === "error" ? 0 : 2) + (finding.file === `${folder}/${PRODUCT_FILE}` ? 0 : 1)
  return findings
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || compareFiles(a.finding, b.finding) || a.order - b.order)
    .map(({ finding }) => finding)
}

const compareFiles = (a: ProductFinding, b: ProductFinding): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)

/** The quoted product names a folder's document gives its variants, each with its path, as far as they are written. */
const quotedNamesIn = (files: ReadonlyMap<string, string>): Array<{ readonly name: string; readonly path: string }> => {
  const text = files.get(PRODUCT_FILE)
  const parsed = text === undefined ? undefined : parseJsonText(text)
  if (parsed === undefined || Result.isFailure(parsed) || !isRecord(parsed.success.value)) return []
  const variants = parsed.success.value["variants"]
  return Array.isArray(variants)
    ? variants.flatMap((variant, index) =>
        isRecord(variant) && typeof variant["quoted_product_name"] === "string"
          ? [{ name: variant["quoted_product_name"], path: fieldPath(["variants", index, "quoted_product_name"]) }]
          : []
      )
    : []
}

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
    for (const { name, path } of quotedNamesIn(files)) {
      const owner = owners.get(name)
      if (owner !== undefined && owner !== folder)
        findings.push({
          severity: "error",
          file: `${folder}/${PRODUCT_FILE}`,
          path,
          message: `"${name}" is a quoted product name of ${owner} too: a quote's product name tells its product and variant apart`
        })
      else owners.set(name, folder)
    }
  return findings
}
