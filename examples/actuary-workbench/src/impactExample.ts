/**
 * The impact example: a 10 000-policy book generated with a fixed seed, the
 * shipped tariffs against the rebalanced leasing proposal, with caps and a
 * target — what `impact/expected-summary.json` records.
 */
import { Tariff, TariffDocuments } from "@kasko/core/actuarial"
import { type ImpactResult, portfolioImpact } from "@kasko/workbench"
import { Result } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"

// this module runs from src/ in the tests and from dist/src/ as the generator
const PACKAGE = join(import.meta.dirname, import.meta.dirname.endsWith(join("dist", "src")) ? "../.." : "..")
export const IMPACT_DIRECTORY = join(PACKAGE, "impact")
export const PORTFOLIO_FILE = join(IMPACT_DIRECTORY, "portfolio-10000.csv")
export const SUMMARY_FILE = join(IMPACT_DIRECTORY, "expected-summary.json")
export const PROPOSAL_FILE = join(IMPACT_DIRECTORY, "insurance-car-leasing-v2-rebalance.json")

/** `kasko portfolio generate --size 10000 --seed 20270101 --as-of 2027-01-01` */
export const BOOK = { size: 10_000, seed: 20270101, as_of: "2027-01-01" } as const

/** `--cap-increase 10% --cap-decrease 5% --target +2% --factor-on kasko` */
export const OPTIONS = {
  impact: { cap_increase_percent: 10, cap_decrease_percent: 5 },
  target: { percent: 2, on: "kasko" }
} as const

export const shippedTariffs = (): ReadonlyArray<Tariff.Tariff> =>
  TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)

export const proposal = (): Tariff.Tariff =>
  Result.getOrThrow(Tariff.decodeTariff(JSON.parse(readFileSync(PROPOSAL_FILE, "utf8"))))

/**
 * The example run, as its README writes it: the shipped tariffs as OLD, the leasing proposal as NEW — so the
 * standalone policies are counted as not compared, and the report is the leasing book's.
 */
export const impactOfExample = (): Promise<ImpactResult> =>
  portfolioImpact({
    old: shippedTariffs(),
    new: [proposal()],
    portfolio: { file: PORTFOLIO_FILE },
    impact: OPTIONS.impact,
    target: OPTIONS.target
  })
