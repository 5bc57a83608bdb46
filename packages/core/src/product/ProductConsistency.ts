/**
 * The rules a product document keeps beyond its Schema: names given once, an enum with options and a default
 * among them, a number with its range, a variant rule on the product's own parameters with `when` on every
 * variant but the last, a vehicle code for every option, each party role on a parameter of persons and
 * organizations. Each part of the document is checked when it decodes: a part the Schema refuses is reported by
 * the Schema alone. Errors are what no engine could load; warnings what loads but is likely a mistake.
 */
import { isCalendarDate } from "../input/CalendarDate.js"
import { fieldPath } from "../input/FieldPath.js"
import {
  type FeatureDocument,
  type ParameterCondition,
  type ParameterDocument,
  PARTY_KINDS,
  type ProductDocument,
  VARIANTS,
  type VariantDocument
} from "./ProductDocument.js"
import { variantReach } from "./VariantReach.js"

/** A finding in the product document: its severity, JSON path and message. */
export interface DocumentFinding {
  readonly severity: "error" | "warning"
  readonly path: string
  readonly message: string
}

/** The parts of a product document that decoded, each on its own. */
export type ProductParts = Partial<Pick<ProductDocument, keyof ProductDocument>>

type Path = ReadonlyArray<PropertyKey>

const error = (path: Path, message: string): DocumentFinding => ({ severity: "error", path: fieldPath(path), message })
const warning = (path: Path, message: string): DocumentFinding => ({
  severity: "warning",
  path: fieldPath(path),
  message
})

const list = (values: ReadonlyArray<string>): string => values.join(", ")

/** An error for each name given before: `what` names the list (`parameters`), `key` the name's member. */
const repeatedNames = (
  items: ReadonlyArray<Readonly<Record<string, unknown>>>,
  what: Path,
  key: string,
  noun: string
): Array<DocumentFinding> => {
  const first = new Map<unknown, number>()
  return items.flatMap((item, index) => {
    const name = item[key]
    const earlier = first.get(name)
    if (earlier === undefined) {
      first.set(name, index)
      return []
    }
    return [error([...what, index, key], `"${String(name)}" is the ${noun} of ${fieldPath([...what, earlier])} too`)]
  })
}

const WHOLE = /^-?(?:0|[1-9][0-9]*)$/

const parameterFindings = (parameter: ParameterDocument, index: number): Array<DocumentFinding> => {
  const at = ["parameters", index]
  const findings: Array<DocumentFinding> = []
  switch (parameter.type) {
    case "enum": {
      const options = parameter.options
      if (options === undefined) findings.push(error(at, "an enum parameter lists its options: options is missing"))
      else if (options.length === 0)
        findings.push(error([...at, "options"], "an enum parameter has at least one option"))
      else findings.push(...repeatedNames(options, [...at, "options"], "id", "id"))
      const ids = (options ?? []).map((option) => option.id)
      if (options !== undefined && parameter.default !== undefined && !ids.includes(parameter.default))
        findings.push(error([...at, "default"], `"${parameter.default}" is not one of the options: ${list(ids)}`))
      break
    }
    case "number": {
      const { minimum, maximum } = parameter
      if (minimum === undefined || maximum === undefined) {
        const missing = [minimum === undefined ? "minimum" : [], maximum === undefined ? "maximum" : []].flat()
        findings.push(error(at, `a number parameter has a minimum and a maximum: ${missing.join(" and ")} missing`))
      } else if (minimum > maximum) {
        findings.push(error([...at, "minimum"], `${minimum} is above the maximum, ${maximum}`))
      } else if (
        parameter.default !== undefined &&
        (!WHOLE.test(parameter.default) || Number(parameter.default) < minimum || Number(parameter.default) > maximum)
      ) {
        findings.push(
          error([...at, "default"], `"${parameter.default}" is not a whole number from ${minimum} to ${maximum}`)
        )
      }
      break
    }
    case "date":
      if (parameter.default !== undefined && !isCalendarDate(parameter.default))
        findings.push(error([...at, "default"], `"${parameter.default}" is not a date YYYY-MM-DD`))
  }
  return findings
}

// the price of a quote is per year or per month: `amount` and `payments_per_year` (spec §2.9) say which
const PAYMENT_PLANS = ["1", "12"]

/** payments_per_year, when a product has it, offers payments per year the engine prices: 1, 12 or both. */
const paymentPlanFindings = (parameters: ReadonlyArray<ParameterDocument>): Array<DocumentFinding> =>
  parameters.flatMap((parameter, index) =>
    parameter.name !== "payments_per_year" || parameter.type !== "enum"
      ? []
      : (parameter.options ?? []).flatMap((option, position) =>
          PAYMENT_PLANS.includes(option.id)
            ? []
            : [
                error(
                  ["parameters", index, "options", position, "id"],
                  `"${option.id}" is no payment plan the engine prices: ${list(PAYMENT_PLANS)}`
                )
              ]
        )
  )

/** A birth date that stands for an age (`age_of`) is a date, and stands for a number parameter of the product. */
const ageFindings = (
  parameters: ReadonlyArray<ParameterDocument>,
  byName: ReadonlyMap<string, ParameterDocument>
): Array<DocumentFinding> =>
  parameters.flatMap((parameter, index) => {
    if (parameter.age_of === undefined) return []
    const at = ["parameters", index, "age_of"]
    if (parameter.type !== "date")
      return [error(at, `only a date stands for an age: ${parameter.name} is ${parameter.type}`)]
    const age = byName.get(parameter.age_of.parameter)
    if (age === undefined)
      return [error([...at, "parameter"], `names no parameter of the product: "${parameter.age_of.parameter}"`)]
    return age.type === "number" ? [] : [error([...at, "parameter"], `${age.name} is ${age.type}: an age is a number`)]
  })

const featureFindings = (
  features: ReadonlyArray<FeatureDocument>,
  parameters: ReadonlyMap<string, ParameterDocument> | undefined
): Array<DocumentFinding> => [
  ...repeatedNames(features, ["features"], "name", "name"),
  ...(parameters === undefined
    ? []
    : features.flatMap((feature, index) =>
        feature.parameter_refs.flatMap((name, position) =>
          parameters.has(name)
            ? []
            : [warning(["features", index, "parameter_refs", position], `names no parameter of the product: "${name}"`)]
        )
      ))
]

/** Every comparison of a condition, with its path. */
const comparisonsOf = (
  condition: ParameterCondition,
  path: Path
): Array<{ readonly comparison: Extract<ParameterCondition, { fact: string }>; readonly path: Path }> => {
  if ("all" in condition) return condition.all.flatMap((inner, index) => comparisonsOf(inner, [...path, "all", index]))
  if ("any" in condition) return condition.any.flatMap((inner, index) => comparisonsOf(inner, [...path, "any", index]))
  if ("not" in condition) return comparisonsOf(condition.not, [...path, "not"])
  return [{ comparison: condition, path }]
}

/** An unknown parameter is an error; a value no option has, a comparison that can never hold as meant: a warning. */
const ruleFindings = (
  when: ParameterCondition,
  path: Path,
  parameters: ReadonlyMap<string, ParameterDocument>
): Array<DocumentFinding> =>
  comparisonsOf(when, path).flatMap(({ comparison, path }) => {
    const parameter = parameters.get(comparison.fact)
    if (parameter === undefined)
      return [error([...path, "fact"], `names no parameter of the product: "${comparison.fact}"`)]
    // an enum without options is refused already
    if (parameter.type !== "enum" || parameter.options === undefined || parameter.options.length === 0) return []
    const ids = parameter.options.map((option) => option.id)
    const values = Array.isArray(comparison.value)
      ? comparison.value.map((value, index) => ({ value, path: [...path, "value", index] }))
      : [{ value: comparison.value, path: [...path, "value"] }]
    return values.flatMap(({ value, path }) =>
      typeof value === "string" && ids.includes(value)
        ? []
        : [warning(path, `${JSON.stringify(value)} is not an option of ${parameter.name}: ${list(ids)}`)]
    )
  })

const variantFindings = (
  variants: ReadonlyArray<VariantDocument>,
  parameters: ReadonlyMap<string, ParameterDocument> | undefined
): Array<DocumentFinding> => {
  if (variants.length === 0) return [error(["variants"], "a product has at least one variant")]
  // the engine's answers and documents know two variants (a Standard quote shows the insurer, an Extended one
  // leaves the parties' phone and email out): each product has both, Standard's rule first
  if (variants.length !== VARIANTS.length || variants.some((variant, index) => variant.name !== VARIANTS[index]))
    return [error(["variants"], `a product has the variants ${VARIANTS.join(" and ")}, in that order`)]
  const last = variants.length - 1
  const findings = [
    ...repeatedNames(variants, ["variants"], "name", "name"),
    ...repeatedNames(variants, ["variants"], "quoted_product_name", "quoted_product_name")
  ]
  variants.forEach((variant, index) => {
    if (index === last && variant.when !== undefined)
      findings.push(
        error(["variants", index, "when"], "the last variant takes the cases no rule takes: it has no when")
      )
    if (index < last && variant.when === undefined)
      findings.push(
        error(["variants", index], "only the last variant goes without a when: this one would take every case")
      )
    if (variant.when !== undefined && parameters !== undefined)
      findings.push(...ruleFindings(variant.when, ["variants", index, "when"], parameters))
  })
  const ruled = findings.every((finding) => finding.severity === "warning")
  if (ruled && parameters !== undefined) {
    findings.push(...variantReach(variants, parameters).map(({ path, message }) => warning(path, message)))
  }
  return findings
}

const CODED = ["type", "usage"] as const

const vehicleCodeFindings = (
  codes: ProductDocument["vehicle_codes"],
  parameters: ReadonlyMap<string, ParameterDocument>
): Array<DocumentFinding> =>
  CODED.flatMap((kind) => {
    const at = ["vehicle_codes", kind]
    const parameter = parameters.get(codes[kind].parameter)
    if (parameter === undefined)
      return [error([...at, "parameter"], `names no parameter of the product: "${codes[kind].parameter}"`)]
    if (parameter.type !== "enum" || parameter.options === undefined)
      return [error([...at, "parameter"], `names ${parameter.name}, which has no options to give codes to`)]
    if (!parameter.required || parameter.default !== undefined)
      return [
        error(
          [...at, "parameter"],
          `names ${parameter.name}: a quote's vehicle always has a code, so it is required, without a default`
        )
      ]
    const ids = parameter.options.map((option) => option.id)
    return [
      ...ids.flatMap((id) =>
        !Object.hasOwn(codes[kind].codes, id)
          ? [error([...at, "codes"], `has no code for "${id}", an option of ${parameter.name}`)]
          : []
      ),
      ...Object.keys(codes[kind].codes).flatMap((id) =>
        ids.includes(id) ? [] : [warning([...at, "codes", id], `is not an option of ${parameter.name}: ${list(ids)}`)]
      )
    ]
  })

const ROLES = ["policy_holder", "vehicle_user", "vehicle_owner"] as const

const partyRoleFindings = (
  roles: ProductDocument["party_roles"],
  parameters: ReadonlyMap<string, ParameterDocument> | undefined
): Array<DocumentFinding> => [
  ...repeatedNames(roles, ["party_roles"], "role", "role"),
  ...(parameters === undefined
    ? []
    : roles.flatMap((entry, index) => {
        const parameter = parameters.get(entry.parameter)
        const at = ["party_roles", index, "parameter"]
        if (parameter === undefined) return [error(at, `names no parameter of the product: "${entry.parameter}"`)]
        const ids = parameter.options?.map((option) => option.id) ?? []
        if (
          parameter.type !== "enum" ||
          ids.length === 0 ||
          !ids.every((id) => (PARTY_KINDS as ReadonlyArray<string>).includes(id))
        )
          return [error(at, `names ${parameter.name}, whose options are not ${PARTY_KINDS.join(" and ")}`)]
        if (!parameter.required || parameter.default !== undefined)
          return [
            error(
              at,
              `names ${parameter.name}: the parties are matched with what a request says, so it is required, without a default`
            )
          ]
        const only = entry.quoted_only_as
        return only === undefined || ids.includes(only.kind)
          ? []
          : [
              error(
                ["party_roles", index, "quoted_only_as", "kind"],
                `${only.kind} is not an option of ${parameter.name}: ${list(ids)}`
              )
            ]
      })),
  ...ROLES.filter((role) => !roles.some((entry) => entry.role === role)).map((role) =>
    warning(["party_roles"], `names no parameter for ${role}: the parties in that role are matched with none`)
  )
]

/** The findings of a product document's parts that decoded; the folder's name is checked by the caller. */
export const productConsistency = (parts: ProductParts): Array<DocumentFinding> => {
  const parameters =
    parts.parameters === undefined
      ? undefined
      : new Map(parts.parameters.map((parameter) => [parameter.name, parameter] as const))
  return [
    ...(parts.parameters === undefined
      ? []
      : [
          ...repeatedNames(parts.parameters, ["parameters"], "name", "name"),
          ...parts.parameters.flatMap(parameterFindings),
          ...ageFindings(parts.parameters, parameters!),
          ...paymentPlanFindings(parts.parameters)
        ]),
    ...(parts.features === undefined ? [] : featureFindings(parts.features, parameters)),
    ...(parts.variants === undefined ? [] : variantFindings(parts.variants, parameters)),
    ...(parts.vehicle_codes === undefined || parameters === undefined
      ? []
      : vehicleCodeFindings(parts.vehicle_codes, parameters)),
    ...(parts.party_roles === undefined ? [] : partyRoleFindings(parts.party_roles, parameters))
  ]
}
