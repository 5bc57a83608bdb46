/**
 * The bands of change per policy an impact report counts: intervals between
 * edges in per cent, "unchanged" and "no old premium", each case placed by
 * exact integer comparison.
 */

/** The default edges (per cent) of the bands of change per policy: the shape an impact test shows. */
export const DEFAULT_PERCENT_EDGES: ReadonlyArray<number> = [-20, -10, -5, -2, 0, 2, 5, 10, 20]

/** The band a change falls in, by exact integer comparison: index into the band list. */
export interface BandPlan {
  /** Edges in basis points of a per cent (per cent × 100), ascending, 0 among them. */
  readonly edges: ReadonlyArray<number>
  readonly zeroEdge: number
}

/** The plan of bands of these edges; throws when an edge has more than two decimals, or the edges do not rise strictly through 0. */
export const bandPlanOf = (edges: ReadonlyArray<number>): BandPlan => {
  const inHundredths = edges.map((edge) => Math.round(edge * 100))
  inHundredths.forEach((edge, index) => {
    if (Math.abs(edge - edges[index]! * 100) > 1e-6)
      throw new Error(`percent edge ${edges[index]} has more than two decimals`)
    if (index > 0 && edge <= inHundredths[index - 1]!) throw new Error("percent edges must rise strictly")
    if (edge <= -10_000) throw new Error(`percent edge ${edges[index]} is not above -100`)
  })
  const zeroEdge = inHundredths.indexOf(0)
  if (zeroEdge === -1) throw new Error("percent edges must include 0")
  return { edges: inHundredths, zeroEdge }
}

/**
 * Bands: 0 … edges.length are the intervals between the edges (below the first, between each two,
 * from the last up), with the interval starting at 0 open there; then "unchanged" (exactly 0), then
 * "no old premium" (a change of an old premium of zero has no per cent).
 */
export const bandIndex = (plan: BandPlan, before: number, after: number): number => {
  const { edges } = plan
  if (after === before) return edges.length + 1
  if (before === 0) return edges.length + 2
  // change ≥ edge  ⇔  after × 10 000 ≥ before × (10 000 + edge): exact in safe integers
  const scaled = after * 10_000
  let index = 0
  while (index < edges.length && scaled >= before * (10_000 + edges[index]!)) index++
  return index
}

const percentLabel = (hundredths: number): string => {
  const sign = hundredths > 0 ? "+" : hundredths < 0 ? "−" : ""
  return `${sign}${Math.abs(hundredths) / 100} %`
}

/** Each band's label and ends: [from, to) per cent, a change of exactly 0 being "unchanged". */
export const bandLabels = (plan: BandPlan): Array<{ band: string; from: number | null; to: number | null }> => {
  const { edges } = plan
  const bands = edges.map((edge, index): { band: string; from: number | null; to: number | null } =>
    index === 0
      ? { band: `under ${percentLabel(edge)}`, from: null, to: edge / 100 }
      : {
          band: `${percentLabel(edges[index - 1]!)} to ${percentLabel(edge)}`,
          from: edges[index - 1]! / 100,
          to: edge / 100
        }
  )
  bands.push({ band: `${percentLabel(edges.at(-1)!)} and over`, from: edges.at(-1)! / 100, to: null })
  bands.push({ band: "unchanged", from: 0, to: 0 })
  bands.push({ band: "no old premium", from: null, to: null })
  return bands
}
