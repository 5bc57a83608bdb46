/**
 * `kasko tariff check`: decodes every rule and event with the Schema, then
 * reports what would silently price wrong — rules no input can fire,
 * coverages with no premium, and rules reading parameters the product does
 * not define.
 */
import { Parameters, ProductCatalogue, Tariff, TariffCompiler, Variant } from "@kasko/core/actuarial"
import { Result } from "effect"

export interface Finding {
  readonly severity: "error" | "warning"
  readonly rule?: string
  readonly message: string
}

/** The parameters each fact is computed from (a fact the table does not name: the parameter of its name). */
const PARAMETERS_OF_FACT: Readonly<Record<Tariff.FactName, ReadonlyArray<string>>> = {
  product_name: [],
  feature: [],
  variant: ["policy_holder", "vehicle_user", "vehicle_usage"],
  vehicle_type: ["vehicle_type"],
  vehicle_usage: ["vehicle_usage"],
  vehicle_price: ["vehicle_price"],
  youngest_user_age: ["youngest_user_age", "youngest_user_birthdate"]
}

const NUMERIC_DOMAINS = {
  vehicle_price: [Parameters.VEHICLE_PRICE_MIN, Parameters.VEHICLE_PRICE_MAX],
  youngest_user_age: [Parameters.DRIVER_AGE_MIN, Parameters.DRIVER_AGE_MAX]
} as const

/** The values of a numeric fact worth trying: each constant a rule compares it with, and its neighbours, within the domain. */
const samplesOf = (fact: keyof typeof NUMERIC_DOMAINS, tariff: Tariff.Tariff): Array<number> => {
  const [min, max] = NUMERIC_DOMAINS[fact]
  const constants = tariff.rules
    .flatMap((rule) => TariffCompiler.factConditionsOf(rule.conditions))
    .filter((condition) => condition.fact === fact)
    .flatMap((condition) => (Array.isArray(condition.value) ? condition.value : [condition.value]))
    .filter((value): value is number => typeof value === "number")
  const candidates = [
    min,
    max,
    ...constants.flatMap((value) => [Math.floor(value) - 1, Math.floor(value), Math.ceil(value), Math.ceil(value) + 1])
  ]
  return [...new Set(candidates.filter((value) => value >= min && value <= max))]
}

/** Every combination of facts a request can produce, with numeric facts sampled at the rules' boundaries. */
const reachableFacts = (tariff: Tariff.Tariff): Array<TariffCompiler.Facts> => {
  const prices = samplesOf("vehicle_price", tariff)
  const ages = [null, ...samplesOf("youngest_user_age", tariff)]
  const facts: Array<TariffCompiler.Facts> = []
  for (const policy_holder of Parameters.POLICY_HOLDERS)
    for (const vehicle_user of Parameters.POLICY_HOLDERS)
      for (const vehicle_usage of Parameters.VEHICLE_USAGES)
        for (const vehicle_type of Parameters.VEHICLE_TYPES)
          for (const feature of ProductCatalogue.FEATURE_NAMES)
            for (const vehicle_price of prices)
              for (const youngest_user_age of ages)
                facts.push({
                  product_name: tariff.product_name,
                  variant: Variant.variantOf(tariff.product_name, {
                    policy_holder,
                    vehicle_user,
                    vehicle_usage
                  }),
                  feature,
                  vehicle_type,
                  vehicle_usage,
                  vehicle_price,
                  youngest_user_age
                })
  return facts
}

const unreachableRules = (tariff: Tariff.Tariff): Array<Finding> => {
  const samples = reachableFacts(tariff)
  return tariff.rules
    .filter((rule) => {
      const holds = TariffCompiler.compileCondition(rule.conditions, rule.name)
      return !samples.some(holds)
    })
    .map((rule) => ({
      severity: "error",
      rule: rule.name,
      message: "is unreachable: no request makes its conditions hold"
    }))
}

const coveragesWithoutPremium = (tariff: Tariff.Tariff): Array<Finding> => {
  const added = new Set<string>()
  const findings: Array<Finding> = []
  for (const rule of tariff.rules) {
    const instruction = rule.event
    if (instruction.type !== "add_coverage") continue
    added.add(instruction.params.coverage)
    const premium = instruction.params.premium
    const free =
      premium.type === "fixed" ? premium.amount === 0 : premium.bands.every((band) => band.rate_basis_points === 0)
    if (free)
      findings.push({
        severity: "error",
        rule: rule.name,
        message: `adds coverage ${instruction.params.coverage} with no premium (0 kr)`
      })
  }
  const charges = new Set(tariff.charges.map((charge) => charge.charge))
  for (const rule of tariff.rules) {
    const instruction = rule.event
    const named =
      instruction.type === "set_deductible" || instruction.type === "set_limit"
        ? [instruction.params.coverage]
        : instruction.type === "apply_loading"
          ? instruction.params.coverages
          : []
    for (const coverage of named.filter((candidate) => !added.has(candidate))) {
      findings.push({
        severity: "error",
        rule: rule.name,
        message: `names coverage ${coverage}, which no rule adds: it has no premium`
      })
    }
    if (instruction.type === "list_charge_as_coverage" && !charges.has(instruction.params.charge)) {
      findings.push({
        severity: "error",
        rule: rule.name,
        message: `lists charge ${instruction.params.charge} as a coverage, but the tariff has no such charge`
      })
    }
  }
  return findings
}

const undefinedParameters = (tariff: Tariff.Tariff): Array<Finding> => {
  const product = ProductCatalogue.productDefinition(tariff.product_name)!
  const defined = new Set(product.features.flatMap((feature) => feature.parameter_refs))
  return tariff.rules.flatMap((rule) => {
    const facts = new Set(TariffCompiler.factConditionsOf(rule.conditions).map((condition) => condition.fact))
    return [...facts].flatMap((fact) => {
      const missing = (PARAMETERS_OF_FACT[fact] ?? [fact]).filter((parameter) => !defined.has(parameter))
      return missing.length === 0
        ? []
        : [
            {
              severity: "error" as const,
              rule: rule.name,
              message: `reads ${fact}, from parameters ${tariff.product_name} does not define in its features: ${missing.join(", ")}`
            }
          ]
    })
  })
}

/** Findings on a tariff document; no error finding means it is safe to load. */
export const lintTariff = (document: unknown): Array<Finding> => {
  const decoded = Tariff.decodeTariff(document)
  if (Result.isFailure(decoded)) return [{ severity: "error", message: `does not decode:\n${decoded.failure}` }]
  const tariff = decoded.success
  return [...unreachableRules(tariff), ...coveragesWithoutPremium(tariff), ...undefinedParameters(tariff)]
}

/** Findings as lines: `error  rule "name": message`. */
export const lintReport = (findings: ReadonlyArray<Finding>): string =>
  findings
    .map(
      (finding) =>
        `${finding.severity.padEnd(7)}${finding.rule === undefined ? "" : `rule "${finding.rule}" `}${finding.message}`
    )
    .join("\n")
