/**
 * The uniform factor that makes a book's premium hit a target change. The
 * linear factor (target total ÷ new total) is the first guess; but each premium
 * × the factor is rounded to the øre policy by policy, a factor on one
 * coverage's rates rounds each line and levies charges on it, and caps bind
 * policy by policy — so the total is monotone in the factor but not linear,
 * and the factor is found by secant steps kept inside a bracket
 * (bisection when they stall), each step a re-pricing of the book, until the
 * total is within one krone of the target. Browser-safe: whoever re-prices (the
 * command's worker threads, the page's web workers) passes `evaluate`.
 */

/** Factors are decimals with this many places: exact rationals the engine multiplies by. */
export const FACTOR_DECIMALS = 15
/** A factor f is the integer f × FACTOR_DENOMINATOR. */
export const FACTOR_DENOMINATOR = 10n ** BigInt(FACTOR_DECIMALS)

/** The factor as a decimal, trailing zeros dropped: 1032571398412345n → "1.032571398412345". */
export const factorText = (numerator: bigint): string => {
  const whole = numerator / FACTOR_DENOMINATOR
  const fraction = (numerator % FACTOR_DENOMINATOR).toString().padStart(FACTOR_DECIMALS, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

/** n / d rounded half up, for non-negative n and positive d. */
const divideHalfUp = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator)

/** The target total of a change of `percent` (at most four decimals) on `old`, both in the same units. */
export const targetTotal = (
  old: bigint,
  percent: number
): { readonly numerator: bigint; readonly denominator: bigint } => {
  const millionths = Math.round(percent * 10_000)
  if (Math.abs(millionths - percent * 10_000) > 1e-6 || percent <= -100)
    throw new Error(`the target must be a per cent above -100 with at most four decimals, not ${percent}`)
  return { numerator: old * BigInt(1_000_000 + millionths), denominator: 1_000_000n }
}

/** The factor that makes `newTotal` × factor hit the target, before any rounding: the solve's first guess. */
export const linearFactor = (
  newTotal: bigint,
  target: { readonly numerator: bigint; readonly denominator: bigint }
): bigint => {
  if (newTotal <= 0n) throw new Error("the new premium total is zero: no factor on it reaches the target")
  return divideHalfUp(target.numerator * FACTOR_DENOMINATOR, target.denominator * newTotal)
}

/** What a solve found: the factor, the total it gives, and how many re-pricings it took. */
export interface FactorSolution {
  /** The factor × FACTOR_DENOMINATOR. */
  readonly numerator: bigint
  readonly total: bigint
  /** Re-pricings of the book (`evaluate` calls). */
  readonly passes: number
  /** Whether |total − target| ≤ the tolerance. */
  readonly hit: boolean
  /**
   * Why a solve that missed stopped before its bracket narrowed to one step: `at zero`, a factor of 0
   * left the total above the target; `flat`, two factors in a row gave the same total, short of it.
   */
  readonly stalled?: "at zero" | "flat"
}

/** What `solveMonotone` solves: the total to hit, the tolerance, and how to price the book at a factor. */
export interface MonotoneProblem {
  /** The target total, as a fraction in the units `evaluate` answers in. */
  readonly target: { readonly numerator: bigint; readonly denominator: bigint }
  /** How far from the target the total may land (one krone, in the same units). */
  readonly tolerance: bigint
  /** The total at factor numerator/FACTOR_DENOMINATOR: non-decreasing in the factor. */
  readonly evaluate: (numerator: bigint) => Promise<bigint>
  /** A point already known (the book at factor 1, from the impact's own pass): costs no pass. */
  readonly known: { readonly numerator: bigint; readonly total: bigint }
  /** The first factor to try (the linear estimate). */
  readonly first: bigint
  /** At most this many re-pricings (default 40). */
  readonly max_passes?: number
}

/** A factor tried, its total, its residual (total − target, over the target's denominator), and its weight in interpolation. */
interface Point {
  readonly numerator: bigint
  readonly total: bigint
  readonly residual: bigint
  /**
   * The residual as interpolation weighs it: Illinois halves a stale bracket end's. Kept apart from
   * the residual, which says how close the point is (the closest point answered may be that end).
   */
  weight: bigint
}

/**
 * Finds a factor whose total lies within the tolerance of the target, for a total that does not
 * decrease as the factor grows. Until the target is bracketed, secant steps through the last two
 * factors tried (at least doubling the step, so a bracket is soon found); then the Illinois
 * variant of regula falsi, which stays inside the bracket and halves a stale end's weight so the
 * bracket shrinks from both sides. Answers the closest factor found when the bracket narrows to
 * one step of the factor's last decimal (a total jumping over the target there cannot land closer).
 */
export const solveMonotone = async (problem: MonotoneProblem): Promise<FactorSolution> => {
  const { target, tolerance, evaluate } = problem
  const maxPasses = problem.max_passes ?? 40
  const pointOf = (numerator: bigint, total: bigint): Point => {
    const residual = total * target.denominator - target.numerator
    return { numerator, total, residual, weight: residual }
  }
  const within = (point: Point) => abs(point.residual) <= tolerance * target.denominator
  const known = pointOf(problem.known.numerator, problem.known.total)
  let best = known
  if (within(known)) return { numerator: known.numerator, total: known.total, passes: 0, hit: true }
  let lower: Point | undefined = known.residual < 0n ? known : undefined
  let upper: Point | undefined = known.residual < 0n ? undefined : known
  let previous = known
  let retained: "lower" | "upper" | undefined
  let candidate = problem.first < 0n ? 0n : problem.first
  let passes = 0
  let stalled: FactorSolution["stalled"]
  while (passes < maxPasses) {
    if (lower !== undefined && upper !== undefined) {
      if (upper.numerator - lower.numerator <= 1n) break
      candidate = interpolate(lower, upper)
    }
    if (candidate < 0n) candidate = 0n
    // even a factor of 0 leaves the total above the target: no factor reaches it
    if (candidate === 0n && upper?.numerator === 0n) {
      stalled = "at zero"
      break
    }
    if (candidate === previous.numerator) candidate = lower === undefined ? candidate - 1n : candidate + 1n
    if (candidate < 0n) candidate = 0n
    const point = pointOf(candidate, await evaluate(candidate))
    passes++
    if (abs(point.residual) < abs(best.residual)) best = point
    if (within(point)) return { numerator: point.numerator, total: point.total, passes, hit: true }
    if (lower === undefined || upper === undefined) {
      const slopeFrom = previous
      previous = point
      // a total that no longer moves with the factor (every policy held by a cap, say) never reaches the target
      if (point.total === slopeFrom.total) {
        stalled = "flat"
        break
      }
      if (point.residual < 0n) lower = lower === undefined || point.numerator > lower.numerator ? point : lower
      else upper = upper === undefined || point.numerator < upper.numerator ? point : upper
      if (lower === undefined || upper === undefined) candidate = secantStep(slopeFrom, point, lower !== undefined)
      continue
    }
    // Illinois: an end kept twice running has its residual halved, so the next interpolation moves off it
    if (point.residual < 0n) {
      lower = point
      if (retained === "upper") upper.weight /= 2n
      retained = "upper"
    } else {
      upper = point
      if (retained === "lower") lower.weight /= 2n
      retained = "lower"
    }
    previous = point
  }
  return {
    numerator: best.numerator,
    total: best.total,
    passes,
    hit: within(best),
    ...(stalled === undefined || within(best) ? {} : { stalled })
  }
}

/** A factor and the total it gives. */
export interface FactorPoint {
  readonly numerator: bigint
  readonly total: bigint
}

/**
 * Where a non-decreasing total first reaches `level`, between `lower` (its total below the level) and
 * `upper` (at or above it), on a grid of factors (`step`, default one unit of the last decimal): the
 * two neighbouring factors of the grid with the total below and at the level — or, when `max_passes`
 * re-pricings did not get there, the narrowest such pair found. Made for a total that is flat on one
 * side of the step (where a limit is reached) and bends on the other, as a capped book's does, each
 * policy bending where its cap takes hold: each step is the secant through the two nearest factors
 * tried on the bending side, which falls on that side of the step and closes on it as Newton's method
 * would; a bisection (of the factor's magnitude while the bracket spans more than a doubling) follows
 * any two steps that did not halve the bracket. Where a single policy's rounding to the øre makes the
 * last step, only bisection finds it: a coarser grid saves those passes.
 */
export const stepToLevel = async (problem: {
  readonly level: bigint
  /** On the grid, as `upper` is. */
  readonly lower: FactorPoint
  readonly upper: FactorPoint
  /** Other factors already tried, for the first secants. */
  readonly known?: ReadonlyArray<FactorPoint>
  readonly evaluate: (numerator: bigint) => Promise<bigint>
  /** The grid's spacing, in units of the factor's last decimal (default 1). */
  readonly step?: bigint
  readonly max_passes?: number
}): Promise<{ readonly lower: FactorPoint; readonly upper: FactorPoint; readonly passes: number }> => {
  const maxPasses = problem.max_passes ?? 64
  const step = problem.step ?? 1n
  // residuals against level − ½, doubled: never zero, so every point falls on one side
  const residualOf = (point: FactorPoint) => 2n * point.total - 2n * problem.level + 1n
  let lower = problem.lower
  let upper = problem.upper
  if (
    residualOf(lower) > 0n ||
    residualOf(upper) < 0n ||
    lower.numerator >= upper.numerator ||
    lower.numerator % step !== 0n ||
    upper.numerator % step !== 0n
  )
    throw new Error("stepToLevel needs a factor of the grid below the level and a higher one at or above it")
  const tried = [...(problem.known ?? []), lower, upper]
  const widths = [upper.numerator - lower.numerator]
  let passes = 0
  while (upper.numerator - lower.numerator > step && passes < maxPasses) {
    const width = upper.numerator - lower.numerator
    const inside = (candidate: bigint | undefined) => {
      if (candidate === undefined) return undefined
      const onGrid = ((candidate + step / 2n) / step) * step
      return onGrid > lower.numerator && onGrid < upper.numerator ? onGrid : undefined
    }
    const stalling = widths.length >= 3 && 2n * width > widths.at(-3)!
    const candidate =
      (stalling ? undefined : inside(secantOnBendingSide(tried, lower, upper, residualOf))) ??
      // a bracket over more than a doubling is halved in magnitude: the step may lie orders of magnitude from an end
      (upper.numerator > 2n * lower.numerator + 2n * step
        ? inside(squareRoot((lower.numerator + step) * upper.numerator))
        : undefined) ??
      lower.numerator + (width / step / 2n) * step
    const point = { numerator: candidate, total: await problem.evaluate(candidate) }
    passes++
    tried.push(point)
    if (residualOf(point) < 0n) lower = point
    else upper = point
    widths.push(upper.numerator - lower.numerator)
  }
  return { lower, upper, passes }
}

/**
 * The secant through the two factors tried nearest the bracket on the side whose totals differ (the
 * side that bends; the other is flat at the level, or at the total the level is one above), where it
 * meets level − ½; undefined when neither side has two such factors.
 */
const secantOnBendingSide = (
  tried: ReadonlyArray<FactorPoint>,
  lower: FactorPoint,
  upper: FactorPoint,
  residualOf: (point: FactorPoint) => bigint
): bigint | undefined => {
  const below = tried.filter((point) => residualOf(point) < 0n).sort((a, b) => (a.numerator > b.numerator ? -1 : 1))
  const above = tried.filter((point) => residualOf(point) > 0n).sort((a, b) => (a.numerator < b.numerator ? -1 : 1))
  for (const [near, far] of [
    [below[0], below.find((point) => point.total !== lower.total)],
    [above[0], above.find((point) => point.total !== upper.total)]
  ] as const) {
    if (near === undefined || far === undefined || near.total === far.total) continue
    const [nearResidual, farResidual] = [residualOf(near), residualOf(far)]
    return near.numerator - (nearResidual * (near.numerator - far.numerator)) / (nearResidual - farResidual)
  }
  return undefined
}

/** ⌊√n⌋ of a non-negative bigint. */
const squareRoot = (value: bigint): bigint => {
  if (value < 2n) return value
  let root = BigInt(Math.floor(Math.sqrt(Number(value))))
  while (root * root > value) root--
  while ((root + 1n) * (root + 1n) <= value) root++
  return root
}

const abs = (value: bigint) => (value < 0n ? -value : value)

/** Where the straight line between the bracket's ends meets the target, strictly inside the bracket. */
const interpolate = (lower: Point, upper: Point): bigint => {
  const width = upper.numerator - lower.numerator
  const span = upper.weight - lower.weight
  const at = span > 0n ? lower.numerator + (width * -lower.weight) / span : lower.numerator + width / 2n
  return at <= lower.numerator ? lower.numerator + 1n : at >= upper.numerator ? upper.numerator - 1n : at
}

/** The secant through two points, towards the target, at least twice their distance when it falls short. */
const secantStep = (from: Point, to: Point, goUp: boolean): bigint => {
  const slopeTotal = to.residual - from.residual
  const slopeFactor = to.numerator - from.numerator
  const step = (slopeFactor < 0n ? -slopeFactor : slopeFactor) || to.numerator / 100n + 1n
  const secant =
    slopeTotal !== 0n && slopeFactor !== 0n ? to.numerator - (to.residual * slopeFactor) / slopeTotal : undefined
  if (goUp) return secant !== undefined && secant > to.numerator ? secant : to.numerator + 2n * step
  return secant !== undefined && secant < to.numerator ? secant : to.numerator - 2n * step
}
