/** What an impact test reports: totals, segments, bands of change, movers and the cases not priced. */
import type { SegmentDimension } from "./ImpactSegments.js"

/** A worksheet line whose amount the change moved. */
export interface MovedLine {
  /** The coverage, or `charge <name>`. */
  readonly item: string
  /** Null when the line is not there under that version. */
  readonly old_kroner: number | null
  readonly new_kroner: number | null
  /** How the worksheet explains the amount under each version. */
  readonly old_explanation: string | null
  readonly new_explanation: string | null
}

/** One of the largest movers, with the worksheet lines that moved it. */
export interface Mover {
  readonly line: number
  readonly policy_id: string
  readonly product_name: string
  readonly feature: string
  readonly parameters: Readonly<Record<string, string>>
  readonly old_kroner: number
  readonly new_kroner: number
  readonly change_kroner: number
  /** Null when the old premium was zero. */
  readonly change_percent: number | null
  readonly moved_lines: ReadonlyArray<MovedLine>
  /** The change in øre, for ranking: larger moves first, then the earlier line. */
  readonly change_ore: number
}

/** A row of totals: the whole portfolio, a segment or a band. */
export interface TotalsRow {
  readonly policies: number
  /** Policies whose premium the change moves. */
  readonly affected: number
  /** Σ weight. */
  readonly exposure: number
  /** Σ weight × premium, in kroner (two decimals). */
  readonly old_kroner: number
  readonly new_kroner: number
  readonly change_kroner: number
  /** Null when the old total is zero. */
  readonly change_percent: number | null
  /** Present when a cap is set: Σ weight × capped premium, and its change. */
  readonly capped_kroner?: number
  readonly capped_change_percent?: number | null
}

/** The totals of one segment of the book (a product, a variant, an age band …): old, new, and their change. */
export interface SegmentRow extends TotalsRow {
  readonly segment: string
}

/** The totals of the policies whose premium changes by a per cent within one band (say, +5 % to +10 %). */
export interface BandRow extends TotalsRow {
  readonly band: string
  /** Null: no lower (upper) end. */
  readonly from_percent: number | null
  readonly to_percent: number | null
}

/** One reason cases of the book were rejected: how many, and the first lines rejected for it. */
export interface RejectionReason {
  readonly reason: string
  readonly cases: number
  /** The first lines rejected for it (at most 20). */
  readonly lines: ReadonlyArray<number>
}

/** Everything an impact test reports. */
export interface ImpactReport {
  readonly totals: TotalsRow & {
    readonly increased: number
    readonly decreased: number
    readonly unchanged: number
  }
  readonly caps: {
    readonly increase_percent: number | null
    readonly decrease_percent: number | null
    /** Policies whose increase (decrease) the cap holds back. */
    readonly capped_increases: number
    readonly capped_decreases: number
  } | null
  /** What the portfolio says the policies pay now, beside the old version's re-rating of them. */
  readonly current: {
    readonly policies: number
    readonly current_kroner: number
    readonly old_kroner: number
    /** Policies whose current premium is not what the old version prices (to the krone). */
    readonly differing: number
  } | null
  readonly segments: Readonly<Record<SegmentDimension, ReadonlyArray<SegmentRow>>>
  /**
   * By each parameter of a product added as data that the report's own dimensions do not read (its options, or
   * the bands its tariffs cut a number into); absent when no product compared is one.
   */
  readonly parameter_segments?: ReadonlyArray<{
    readonly parameter: string
    /** The parameter's title in its product's document. */
    readonly title: string
    readonly rows: ReadonlyArray<SegmentRow>
  }>
  readonly bands: ReadonlyArray<BandRow>
  readonly movers: { readonly increases: ReadonlyArray<Mover>; readonly decreases: ReadonlyArray<Mover> }
  readonly rejected: { readonly cases: number; readonly reasons: ReadonlyArray<RejectionReason> }
  readonly not_compared: ReadonlyArray<{ readonly product_name: string; readonly cases: number }>
}
