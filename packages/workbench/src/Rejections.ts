/** The cases an impact test rejected, counted by reason, with the first lines of each. */
import type { RejectionReason } from "./ImpactReport.js"

const REJECTED_LINES_KEPT = 20

/** A reason's count and earliest lines, as plain data (what a worker posts back). */
export interface ReasonTally {
  readonly cases: number
  readonly lines: Array<number>
}

/** Rejected cases by reason; merges keep the earliest lines, whatever order workers' parts arrive in. */
export class Rejections {
  private readonly reasons = new Map<string, { cases: number; lines: Array<number> }>()
  /** Cases rejected (a case may have several reasons). */
  cases = 0

  /** A rejected case at this line, with every reason it failed for. */
  add(line: number, reasons: ReadonlyArray<string>): void {
    this.cases++
    for (const reason of reasons) this.addReason(reason, 1, [line])
  }

  /** Another part's rejections. */
  merge(cases: number, reasons: ReadonlyArray<readonly [string, ReasonTally]>): void {
    this.cases += cases
    for (const [reason, entry] of reasons) this.addReason(reason, entry.cases, entry.lines)
  }

  /** The reasons as plain data (copies). */
  state(): Array<readonly [string, ReasonTally]> {
    return [...this.reasons].map(([reason, entry]) => [reason, { ...entry, lines: [...entry.lines] }] as const)
  }

  /** The reasons as the report lists them: the most cases first, each with its earliest lines in order. */
  report(): Array<RejectionReason> {
    return [...this.reasons]
      .map(([reason, entry]) => ({ reason, cases: entry.cases, lines: [...entry.lines].sort((a, b) => a - b) }))
      .sort((a, b) => b.cases - a.cases || (a.reason < b.reason ? -1 : 1))
  }

  private addReason(reason: string, cases: number, lines: ReadonlyArray<number>): void {
    let entry = this.reasons.get(reason)
    if (entry === undefined) {
      entry = { cases: 0, lines: [] }
      this.reasons.set(reason, entry)
    }
    entry.cases += cases
    // keep the earliest lines, whatever order the workers' parts arrive in
    entry.lines.push(...lines)
    if (entry.lines.length > REJECTED_LINES_KEPT) {
      entry.lines.sort((a, b) => a - b)
      entry.lines.length = REJECTED_LINES_KEPT
    }
  }
}
