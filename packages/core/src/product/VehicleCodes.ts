/**
 * The coded strings a quote's vehicle carries (spec §2.9), from the product's document: per option of the parameter
 * that names the vehicle's type and its usage. The seed products say what the spec observed (personbil 01,
 * varevogn 03; privat_person_koersel 01, godstransport 40) and number the usages it does not show 41–43.
 */
import { Schema } from "effect"
import { productDocument, SHIPPED_PRODUCTS } from "./ProductCatalogue.js"

const codesOf = (kind: "type" | "usage"): ReadonlyArray<string> => [
  ...new Set(SHIPPED_PRODUCTS.flatMap((document) => Object.values(document.vehicle_codes[kind].codes)))
]

export const VehicleTypeCode = Schema.Literals(codesOf("type"))
export const VehicleUsageCode = Schema.Literals(codesOf("usage"))

/** The code of a case's vehicle type or usage, read from the parameter the product names for it. */
export const vehicleCode = (
  productName: string,
  kind: "type" | "usage",
  parameters: Readonly<Record<string, unknown>>
): string => {
  const codes = productDocument(productName)?.vehicle_codes[kind]
  const option = String(parameters[codes?.parameter ?? ""])
  const code = codes !== undefined && Object.hasOwn(codes.codes, option) ? codes.codes[option] : undefined
  if (code === undefined) throw new Error(`the catalogue has no vehicle ${kind} code for this case of ${productName}`)
  return code
}
