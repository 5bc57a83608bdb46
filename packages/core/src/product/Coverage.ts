/**
 * Coverages as the API shows them (spec §2.5), selected by the tariff for a
 * product × variant × feature: every coverage line of the worksheet plus the
 * charges the tariff lists as coverages (statsafgift in Extended), in tariff order.
 * @module
 */
import { Schema } from "effect"
import { kronerHalfUp } from "../pricing/Money.js"
import { SHIPPED_COVERAGE_NAMES } from "../pricing/ShippedTariffs.js"
import { perCatalogue, shipped } from "./ProductCatalogue.js"

const coverage = (name: Schema.Codec<string, string>) =>
  Schema.Struct({
    id: Schema.String,
    name,
    deductible: Schema.optionalKey(Schema.Int),
    limit: Schema.optionalKey(Schema.Int)
  })

// the shipped tariffs' names: a service pricing with tariffs of its own that add other coverages answers names
// its document does not list
/** A coverage as the API shows it (spec §2.5): its id, name, and deductible and limit where it has them. */
export const Coverage = coverage(
  Schema.Literals(SHIPPED_COVERAGE_NAMES).annotate({ description: "The coverage, as the tariff names it" })
)

/** A coverage as any answer writes it, its name as the tariff gave it (`ProductSelection.AnyProductEcho` says why). */
export const AnyCoverage = coverage(Schema.String.annotate({ description: "The coverage, as the tariff names it" }))

/**
 * The coverage Schema of a catalogue's answers: the shipped tariffs' names for the shipped catalogue; any name for
 * another, whose tariffs are loaded beside it and may name a coverage its documents do not describe (`kasko products
 * check` warns of it) — the documents' coverages are the description's examples.
 */
export const coverageSchemaOf = perCatalogue((catalogue) =>
  catalogue === shipped
    ? Coverage
    : coverage(
        Schema.String.annotate({
          description: "The coverage, as the tariff names it",
          examples: [...new Set(catalogue.versions.flatMap((document) => Object.keys(document.coverages)))]
        })
      )
)
export type Coverage = typeof Coverage.Type

/** What coverages are read from: a worksheet, or a price computation. */
interface PricedCoverages {
  readonly coverage_lines: ReadonlyArray<{
    readonly position: number
    readonly id: string
    readonly coverage: string
    readonly deductible_ore?: number
    readonly limit_ore?: number
  }>
  readonly charge_lines: ReadonlyArray<{
    readonly charge: string
    readonly listed_as_coverage?: { readonly id: string; readonly position: number }
  }>
}

const coverageOfLine = (line: PricedCoverages["coverage_lines"][number]): Coverage => {
  const coverage: { id: string; name: string; deductible?: number; limit?: number } = {
    id: line.id,
    name: line.coverage
  }
  if (line.deductible_ore !== undefined) coverage.deductible = kronerHalfUp(line.deductible_ore)
  if (line.limit_ore !== undefined) coverage.limit = kronerHalfUp(line.limit_ore)
  return coverage
}

/** The coverages a price covers, amounts in whole kroner, in tariff order (lines come in it; listed charges are merged in). */
export const coveragesOf = (worksheet: PricedCoverages): Array<Coverage> => {
  const listed: Array<{ readonly position: number; readonly coverage: Coverage }> = []
  for (const charge of worksheet.charge_lines) {
    if (charge.listed_as_coverage !== undefined) {
      listed.push({
        position: charge.listed_as_coverage.position,
        coverage: { id: charge.listed_as_coverage.id, name: charge.charge }
      })
    }
  }
  if (listed.length === 0) return worksheet.coverage_lines.map(coverageOfLine)
  listed.sort((a, b) => a.position - b.position)
  const coverages: Array<Coverage> = []
  let next = 0
  for (const line of worksheet.coverage_lines) {
    while (next < listed.length && listed[next]!.position < line.position) coverages.push(listed[next++]!.coverage)
    coverages.push(coverageOfLine(line))
  }
  while (next < listed.length) coverages.push(listed[next++]!.coverage)
  return coverages
}
