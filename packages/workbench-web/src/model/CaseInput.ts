/**
 * The case the form holds: product, feature, which tariff, pricing date and
 * the parameters as typed (every value a string; empty means "not sent", as
 * in a golden table). Its fields are the case's product's parameters, as the
 * version of it in force on the pricing date defines them — the version the
 * engine decodes the case against.
 */
import { CalendarDate, ProductCatalogue, type Tariff } from "@kasko/core/actuarial"
import type { TariffVersion } from "./TariffVersion.js"

export interface CaseInput {
  readonly product_name: string
  readonly feature: string
  /** `IN_FORCE`, or the key of one version. */
  readonly tariff: string
  readonly pricing_date: string
  readonly parameters: Readonly<Record<string, string>>
}

/** Price with the version of the product in force on the pricing date, as the service does. */
export const IN_FORCE = "in-force"

/**
 * The catalogue in force on a date, as the engine reads a case priced then (each product's version in force); the
 * whole catalogue (each product's newest version) while the date is not one.
 */
export const inForceOn = (catalogue: ProductCatalogue.Catalogue, date: string): ProductCatalogue.Catalogue =>
  CalendarDate.isCalendarDate(date) ? catalogue.on(date) : catalogue

/** The parameters of the case's product, in its document's order; none for a product the catalogue lacks. */
export const parameterDefinitionsOf = (
  productName: string,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): ReadonlyArray<ProductCatalogue.ProductDefinition["parameters"][number]> =>
  catalogue.definition(productName)?.parameters ?? []

/**
 * The parameters sent for a case: the non-empty ones its product defines (a value the product no longer has, after
 * its document was edited, would be refused as an unknown field).
 */
export const sentParameters = (
  input: CaseInput,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Record<string, string> => {
  const defined = new Set(
    parameterDefinitionsOf(input.product_name, inForceOn(catalogue, input.pricing_date)).map(
      (definition) => definition.name
    )
  )
  return Object.fromEntries(
    Object.entries(input.parameters).filter(
      ([name, value]) => value !== "" && (defined.size === 0 || defined.has(name))
    )
  )
}

/**
 * The tariffs a case is priced with, in the workbench's convention
 * (`priceCase`): one chosen version, or every saved version of the directory,
 * of which the one in force on the pricing date prices (a proposal prices
 * only when chosen: it is not in force anywhere).
 */
export const tariffsFor = (
  input: CaseInput,
  versions: ReadonlyArray<TariffVersion>,
  draft: TariffVersion | undefined
): ReadonlyArray<Tariff.Tariff> => {
  if (input.tariff === IN_FORCE)
    return versions.flatMap((version) =>
      version.tariff === undefined || version.proposal === true ? [] : [version.tariff]
    )
  const chosen = draft?.key === input.tariff ? draft : versions.find((version) => version.key === input.tariff)
  return chosen?.tariff === undefined ? [] : [chosen.tariff]
}

/** A starting case: a person's private car, the leasing product, standard feature. */
export const sampleCase = (today: string): CaseInput => ({
  product_name: "insurance-car-leasing",
  feature: "standard",
  tariff: IN_FORCE,
  pricing_date: today,
  parameters: {
    payments_per_year: "1",
    policy_holder: "person",
    vehicle_type: "personbil",
    vehicle_user: "person",
    vehicle_owner: "organization",
    vehicle_usage: "privat_person_koersel",
    vehicle_price: "250000",
    youngest_user_age: "",
    youngest_user_birthdate: ""
  }
})

/**
 * The case as a case of another product (or of its product as the catalogue now defines it, on the case's date):
 * the feature kept when the product has it, else its first; each of its parameters keeps the value typed for the same
 * name when the product allows it (an enum's option), else takes its default, else is not sent. The tariff is the one
 * in force.
 */
export const caseOfProduct = (
  input: CaseInput,
  productName: string,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): CaseInput => {
  const definition = inForceOn(catalogue, input.pricing_date).definition(productName)
  if (definition === undefined) return { ...input, product_name: productName, tariff: IN_FORCE }
  const allowed = (parameter: (typeof definition.parameters)[number], value: string | undefined) =>
    value !== undefined &&
    (parameter.options === undefined || value === "" || parameter.options.some((option) => option.id === value))
  return {
    ...input,
    product_name: productName,
    tariff: productName === input.product_name ? input.tariff : IN_FORCE,
    feature: definition.features.some((feature) => feature.name === input.feature)
      ? input.feature
      : (definition.features[0]?.name ?? input.feature),
    parameters: Object.fromEntries(
      definition.parameters.map((parameter) => {
        const typed = input.parameters[parameter.name]
        return [parameter.name, allowed(parameter, typed) ? typed! : (parameter.default ?? "")]
      })
    )
  }
}
