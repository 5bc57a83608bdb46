/**
 * The case the form holds: product, feature, which tariff, pricing date and
 * the parameters as typed (every value a string; empty means "not sent", as
 * in a golden table).
 */
import { ProductCatalogue, type Tariff } from "@kasko/core/actuarial"
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

/** The parameters both products define, in the catalogue's order. */
export const PARAMETER_DEFINITIONS = ProductCatalogue.productDefinition("insurance-car-leasing")!.parameters

/** The parameters sent for a case: the non-empty ones. */
export const sentParameters = (input: CaseInput): Record<string, string> =>
  Object.fromEntries(Object.entries(input.parameters).filter(([, value]) => value !== ""))

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
