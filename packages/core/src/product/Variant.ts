/** The variant of a product, derived from its parameters (spec §1). */
import type { ProductParameters } from "./Parameters.js"

export type Variant = "standard" | "extended"

/** Standard iff policy holder and vehicle user are persons and the vehicle is used for private driving; otherwise Extended. */
export const deriveVariant = (
  parameters: Pick<ProductParameters, "policy_holder" | "vehicle_user" | "vehicle_usage">
): Variant =>
  parameters.policy_holder === "person" &&
  parameters.vehicle_user === "person" &&
  parameters.vehicle_usage === "privat_person_koersel"
    ? "standard"
    : "extended"
