/**
 * What an impact pricer makes of each case of a portfolio: priced under both
 * versions, rejected with its reasons, or not compared. Browser-safe.
 */
import type { Pricing } from "@kasko/core/actuarial"

type PriceComputation = Pricing.PriceComputation

/** Weights carry at most four decimals: sums are kept in øre × WEIGHT_SCALE, exactly. */
export const WEIGHT_SCALE = 10_000

/** A case priced under both versions: what an `impactPricer` gives for a valid row. */
export interface PricedCase {
  readonly kind: "priced"
  /** Where the case is in the portfolio: its line in the file, or its place in the store's listing. */
  readonly line: number
  readonly policy_id: string
  /** The weight (exposure) × WEIGHT_SCALE, an integer. */
  readonly weight_units: number
  /** The premium the portfolio says the policy pays now (øre), when it says. */
  readonly current_ore: number | undefined
  readonly parameters: Readonly<Record<string, string>>
  readonly old: PriceComputation
  readonly new: PriceComputation
}

/** A case that failed validation: every reason, each naming the column. */
export interface RejectedCase {
  readonly kind: "rejected"
  readonly line: number
  readonly policy_id: string
  readonly reasons: ReadonlyArray<string>
}

/** A valid case of a product that one of the two sides has no tariff for. */
export interface UncomparedCase {
  readonly kind: "not_compared"
  readonly line: number
  readonly policy_id: string
  readonly product_name: string
}

/** What became of one case of a portfolio in an impact test: priced under both versions, rejected, or not compared. */
export type CaseOutcome = PricedCase | RejectedCase | UncomparedCase
