/**
 * `kasko tariff check`: decodes every rule and event with the Schema, then
 * reports what would silently price wrong — rules no input can fire,
 * coverages with no premium, and rules reading parameters the product does
 * not define.
 */
import { CaseSpace, ProductCatalogue, type ProductDocument, Tariff, TariffCompiler } from "@kasko/core/actuarial"
import { Result } from "effect"

/** One thing `kasko tariff lint` found in a tariff: an error or a warning, with the rule and what is wrong. */
export interface Finding {
  readonly severity: "error" | "warning"
  readonly rule?: string
  readonly message: string
}

/**
 * Rules no request can fire: none of the cases the tariff's own conditions tell apart (each combination of the
 * product's fact parameters at the rules' boundaries, with the variant the product's rule makes of it, each
 * feature: `CaseSpace.casesOf`) makes its conditions hold.
 */
const unreachableRules = (tariff: Tariff.Tariff, catalogue: ProductCatalogue.Catalogue): Array<Finding> => {
  const product = ProductCatalogue.versionForTariff(catalogue, tariff.product_name, tariff.effective_from)
  if (product === undefined) return []
  const factNames = ProductCatalogue.factNamesOf(product)
  const cases = CaseSpace.casesOf(
    product,
    tariff.rules.flatMap((rule) => TariffCompiler.factConditionsOf(rule.conditions))
  ).map((facts) => factNames.map((name) => facts[name]))
  return tariff.rules
    .filter((rule) => {
      const holds = TariffCompiler.compileOverFacts(rule.conditions, factNames, rule.name)
      return !cases.some(holds)
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

/** The parameters a fact is read from: the variant's from those its rule reads, an age's from a birth date too. */
const parametersOfFact = (product: ProductDocument.ProductDocument, fact: string): ReadonlyArray<string> => {
  if (fact === "product_name" || fact === "feature") return []
  if (fact === "variant")
    return [
      ...new Set(
        product.variants.flatMap((variant) =>
          variant.when === undefined
            ? []
            : TariffCompiler.factConditionsOf(variant.when as Tariff.Condition).map((condition) => condition.fact)
        )
      )
    ]
  const birthDates = product.parameters.filter((parameter) => parameter.age_of?.parameter === fact)
  return [fact, ...birthDates.map((parameter) => parameter.name)]
}

const undefinedParameters = (tariff: Tariff.Tariff, catalogue: ProductCatalogue.Catalogue): Array<Finding> => {
  const product = ProductCatalogue.versionForTariff(catalogue, tariff.product_name, tariff.effective_from)
  if (product === undefined) return []
  const defined = new Set(product.features.flatMap((feature) => feature.parameter_refs))
  return tariff.rules.flatMap((rule) => {
    const facts = new Set(TariffCompiler.factConditionsOf(rule.conditions).map((condition) => condition.fact))
    return [...facts].flatMap((fact) => {
      const missing = parametersOfFact(product, fact).filter((parameter) => !defined.has(parameter))
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

/** Findings on a tariff document of a catalogue's product (a shipped one unless given); no error finding means it is safe to load. */
export const lintTariff = (
  document: unknown,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Array<Finding> => {
  const decoded = Tariff.decodeTariff(document, catalogue)
  if (Result.isFailure(decoded)) return [{ severity: "error", message: `does not decode:\n${decoded.failure}` }]
  const tariff = decoded.success
  return [
    ...unreachableRules(tariff, catalogue),
    ...coveragesWithoutPremium(tariff),
    ...undefinedParameters(tariff, catalogue)
  ]
}

/** Findings as lines: `error  rule "name": message`. */
export const lintReport = (findings: ReadonlyArray<Finding>): string =>
  findings
    .map(
      (finding) =>
        `${finding.severity.padEnd(7)}${finding.rule === undefined ? "" : `rule "${finding.rule}" `}${finding.message}`
    )
    .join("\n")
