/** The variant of a product, derived from its parameters (spec §1). */
import type { ProductParameters } from "./Parameters.js"

/** The two variants of every product (spec §1), as the documents' paths name them. */
export const VARIANTS = ["standard", "extended"] as const
export type Variant = (typeof VARIANTS)[number]

/** True for a variant's name. */
export const isVariant = (name: string): name is Variant => (VARIANTS as ReadonlyArray<string>).includes(name)

/**
 * What makes a case Standard: every one of these parameters has this value;
 * any other value of any of them makes it Extended. Data rather than code so
 * that the workbench and the documentation describe the rule the engine runs.
 */
export const STANDARD_WHEN = {
  policy_holder: "person",
  vehicle_user: "person",
  vehicle_usage: "privat_person_koersel"
} as const satisfies Partial<Record<keyof ProductParameters, string>>

/** The parameters the variant is derived from. */
export type VariantParameter = keyof typeof STANDARD_WHEN

const CONDITIONS = Object.entries(STANDARD_WHEN) as ReadonlyArray<readonly [VariantParameter, string]>

/** The parameters whose values make a case Extended (none for a Standard case), in `STANDARD_WHEN`'s order. */
export const extendedBecause = (
  parameters: Readonly<Partial<Record<VariantParameter, string>>>
): Array<VariantParameter> => CONDITIONS.flatMap(([name, value]) => (parameters[name] === value ? [] : [name]))

/** Standard iff policy holder and vehicle user are persons and the vehicle is used for private driving; otherwise Extended. */
export const deriveVariant = (parameters: Pick<ProductParameters, VariantParameter>): Variant =>
  CONDITIONS.every(([name, value]) => parameters[name] === value) ? "standard" : "extended"
