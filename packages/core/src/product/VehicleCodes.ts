/**
 * The coded strings a quote's vehicle carries (spec §2.9), from the product's document: per option of the parameter
 * that names the vehicle's type and its usage. The seed products say what the spec observed (personbil 01,
 * varevogn 03; privat_person_koersel 01, godstransport 40) and number the usages it does not show 41–43.
 */
import { Schema } from "effect"
import { type Catalogue, perCatalogue, shipped } from "./ProductCatalogue.js"

const codesOf = (catalogue: Catalogue, kind: "type" | "usage"): ReadonlyArray<string> => [
  ...new Set(catalogue.versions.flatMap((document) => Object.values(document.vehicle_codes[kind].codes)))
]

/** The Schemas of a quote's vehicle codes for a catalogue's products: every code one of them gives. */
export const vehicleCodeSchemasOf = perCatalogue((catalogue) => ({
  type: Schema.Literals(codesOf(catalogue, "type")),
  usage: Schema.Literals(codesOf(catalogue, "usage"))
}))

export const VehicleTypeCode = vehicleCodeSchemasOf(shipped).type
export const VehicleUsageCode = vehicleCodeSchemasOf(shipped).usage

/** The code of a case's vehicle type or usage, read from the parameter the product names for it. */
export const vehicleCode = (
  productName: string,
  kind: "type" | "usage",
  parameters: Readonly<Record<string, unknown>>,
  catalogue: Catalogue = shipped
): string => {
  const codes = catalogue.document(productName)?.vehicle_codes[kind]
  const option = String(parameters[codes?.parameter ?? ""])
  const code = codes !== undefined && Object.hasOwn(codes.codes, option) ? codes.codes[option] : undefined
  if (code === undefined) throw new Error(`the catalogue has no vehicle ${kind} code for this case of ${productName}`)
  return code
}
