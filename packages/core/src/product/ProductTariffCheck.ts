/**
 * A product folder's tariffs checked against the versions of its product document they price with
 * (`ProductCheck.checkProductFolder` runs them): facts a tariff reads that the product does not give it, coverages its
 * documents do not describe, options no rule names. Which versions a tariff prices with follows from their dates, as
 * the book plans them (`TariffDocuments.productVersionsPricedBy`).
 */
import { inForceTogether } from "../input/CalendarDate.js"
import { fieldPath } from "../input/FieldPath.js"
import type { Tariff } from "../pricing/Tariff.js"
import { PRODUCT_FACT_NAMES } from "./ProductCatalogue.js"
import { factConditionsOf } from "../pricing/TariffCompiler.js"
import type { ProductParts } from "./ProductConsistency.js"
import { valuesComparedWith } from "./VariantReach.js"

/** A problem of a tariff with its product, at a JSON path of the file it is in (`ProductCheck.ProductFinding` adds which). */
export interface TariffFinding {
  readonly severity: "error" | "warning"
  readonly path: string
  readonly message: string
}

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

export interface LoadedTariff {
  readonly file: string
  readonly tariff: Tariff
}

/**
 * Options no rule of a tariff names, of a parameter its rules read. A tariff reads the product's enum parameters
 * marked as facts one by one; the other parameters reach it only through the variant, so the values the variant
 * rule names count as named when the tariff reads the variant.
 */
export const optionsNoRuleNames = (parts: ProductParts, tariffs: ReadonlyArray<LoadedTariff>): Array<TariffFinding> =>
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
export const factsNotGiven = (
  parameters: NonNullable<ProductParts["parameters"]>,
  productFile: string,
  { tariff }: LoadedTariff
): Array<TariffFinding> => {
  const given = new Set<string>([
    ...PRODUCT_FACT_NAMES,
    ...parameters.flatMap((parameter) => (parameter.fact === true ? [parameter.name] : []))
  ])
  const meaning = (fact: string) =>
    parameters.some((parameter) => parameter.name === fact)
      ? `mark the parameter ${fact} "fact": true in ${productFile}`
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
export const coveragesNotDescribed = (
  coverages: NonNullable<ProductParts["coverages"]>,
  productFile: string,
  { tariff }: LoadedTariff
): Array<TariffFinding> => {
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
        message: `${named.what} "${named.name}", which the coverages of ${productFile} do not describe: its documents have no words for it`
      }
    ]
  })
}

/** A version of the product document, as far as it is read: its file, the parts that decode, when it takes effect. */
export interface LoadedProduct {
  readonly file: string
  readonly parts: ProductParts
  readonly version: string | undefined
  readonly effective_from: string | undefined
}

/**
 * The versions of the product a tariff prices with: those in force at some time the tariff is, as the book will
 * plan them (`TariffDocuments.productVersionsPricedBy`); every version, when dates are missing to tell.
 */
export const versionsPricedBy = (
  loaded: LoadedTariff,
  tariffs: ReadonlyArray<LoadedTariff>,
  products: ReadonlyArray<LoadedProduct>
): ReadonlyArray<LoadedProduct> => {
  const tariffDates = tariffs.map(({ tariff }) => tariff.effective_from)
  const productDates = products.flatMap((product) =>
    product.effective_from === undefined ? [] : [product.effective_from]
  )
  return products.filter(
    (product) =>
      product.effective_from === undefined ||
      inForceTogether(loaded.tariff.effective_from, tariffDates, product.effective_from, productDates)
  )
}
