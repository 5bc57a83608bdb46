/**
 * The impact view's options as typed — pricing date, caps, target and what its
 * factor is on, bands, movers — read as `kasko tariff impact` reads its options
 * (`15%`, `+3%`, `-10,-5,0,5,10`) into the impact test's settings, or a message
 * for each field that is not right; and the command line that runs the same test.
 */
import { CalendarDate } from "@kasko/core/actuarial"
import type { ImpactOptions, ImpactTarget } from "@kasko/workbench/browser"
import { Result } from "effect"

/** The view's fields as typed; an empty field takes the command's default. */
export interface ImpactChoices {
  /** The version keys compared. */
  readonly old: string
  readonly new: string
  readonly pricing_date: string
  readonly cap_increase: string
  readonly cap_decrease: string
  readonly target: string
  /** `premium` (the whole premium) or a coverage of the new version. */
  readonly factor_on: string
  readonly bands: string
  readonly top: string
}

export const WHOLE_PREMIUM = "premium"

/** The fields empty: no caps, no target, the command's bands and movers, NEW's effective_from. */
export const DEFAULT_IMPACT_CHOICES: Omit<ImpactChoices, "old" | "new"> = {
  pricing_date: "",
  cap_increase: "",
  cap_decrease: "",
  target: "",
  factor_on: WHOLE_PREMIUM,
  bands: "",
  top: ""
}

/** What the test runs with, once every field reads. */
export interface ImpactSettings {
  /** Undefined: NEW's effective_from, as the command's default. */
  readonly pricing_date: string | undefined
  readonly impact: ImpactOptions
  readonly target: ImpactTarget | undefined
}

/** A field that does not read, and why. */
export interface ImpactFieldProblem {
  readonly field: keyof ImpactChoices
  readonly message: string
}

// as the command reads a per cent: `15%`, `15`, `+3%`, `-2.5 %`
const PERCENT = /^([+-]?\d{1,7}(?:\.\d{1,4})?)\s*%?$/
const WHOLE = /^\d{1,4}$/
/** The most movers the page lists each way (each carries its worksheet lines). */
export const MOST_MOVERS = 1_000

const decimals = (text: string): number => /\.(\d+)/.exec(text)?.[1]?.length ?? 0

/** The per cent a field holds, or a message. */
const percentOf = (text: string): Result.Result<{ readonly value: number; readonly decimals: number }, string> => {
  const match = PERCENT.exec(text.trim())
  return match === null
    ? Result.fail("a per cent like 15% or +3%, please")
    : Result.succeed({ value: Number(match[1]), decimals: decimals(match[1]!) })
}

/** The settings the fields give, or every field's problem. */
export const impactSettingsOf = (
  choices: ImpactChoices
): Result.Result<ImpactSettings, ReadonlyArray<ImpactFieldProblem>> => {
  const problems: Array<ImpactFieldProblem> = []
  const impact: { -readonly [Key in keyof ImpactOptions]: ImpactOptions[Key] } = {}
  let target: ImpactTarget | undefined

  const date = choices.pricing_date.trim()
  if (date !== "" && !CalendarDate.isCalendarDate(date))
    problems.push({ field: "pricing_date", message: "a date YYYY-MM-DD, or empty for NEW's effective_from" })

  if (choices.cap_increase.trim() !== "") {
    const cap = percentOf(choices.cap_increase)
    if (Result.isFailure(cap)) problems.push({ field: "cap_increase", message: cap.failure })
    else if (cap.success.value < 0 || cap.success.decimals > 2)
      problems.push({ field: "cap_increase", message: "the largest increase: a per cent from 0, two decimals at most" })
    else impact.cap_increase_percent = cap.success.value
  }
  if (choices.cap_decrease.trim() !== "") {
    const cap = percentOf(choices.cap_decrease)
    if (Result.isFailure(cap)) problems.push({ field: "cap_decrease", message: cap.failure })
    // a decrease cap may be written either way, as on the command line: -10% and 10% both hold decreases to 10 %
    else if (Math.abs(cap.success.value) > 100 || cap.success.decimals > 2)
      problems.push({
        field: "cap_decrease",
        message: "the largest decrease: a per cent up to 100, two decimals at most"
      })
    else impact.cap_decrease_percent = Math.abs(cap.success.value)
  }
  if (choices.target.trim() !== "") {
    const percent = percentOf(choices.target)
    if (Result.isFailure(percent)) problems.push({ field: "target", message: percent.failure })
    else if (percent.success.value <= -100)
      problems.push({ field: "target", message: "a change above −100 %, four decimals at most" })
    else target = { percent: percent.success.value, on: choices.factor_on || WHOLE_PREMIUM }
  }
  if (choices.bands.trim() !== "") {
    const edges = choices.bands.split(",").map((edge) => percentOf(edge))
    const values = edges.flatMap((edge) => (Result.isSuccess(edge) ? [edge.success] : []))
    if (values.length < edges.length)
      problems.push({ field: "bands", message: "per cents separated by commas, like -10,-5,0,5,10, please" })
    else if (values.some((edge) => edge.decimals > 2 || edge.value <= -100))
      problems.push({ field: "bands", message: "each edge above −100 %, two decimals at most" })
    else if (!values.some((edge) => edge.value === 0))
      problems.push({ field: "bands", message: "the edges must include 0" })
    else if (values.some((edge, index) => index > 0 && edge.value <= values[index - 1]!.value))
      problems.push({ field: "bands", message: "the edges must rise" })
    else impact.percent_edges = values.map((edge) => edge.value)
  }
  if (choices.top.trim() !== "") {
    const top = choices.top.trim()
    if (!WHOLE.test(top) || Number(top) > MOST_MOVERS)
      problems.push({ field: "top", message: `a whole number from 0 to ${MOST_MOVERS}` })
    else impact.top_movers = Number(top)
  }
  return problems.length > 0
    ? Result.fail(problems)
    : Result.succeed({ pricing_date: date === "" ? undefined : date, impact, target })
}

const signedPercent = (value: number) => `${value > 0 ? "+" : ""}${value}%`

/**
 * `kasko tariff impact` with the options that run the same test: the two tariff files and the
 * portfolio's, as the caller names them, and the products directory when the workbench has one. Values that may
 * start with a minus are joined to their option by `=`, so that no parser takes them for an option.
 */
export const impactCommandLine = (
  oldFile: string,
  newFile: string,
  portfolioFile: string,
  settings: ImpactSettings,
  productsDirectory?: string
): Array<string> => {
  const { impact, target } = settings
  return [
    "kasko",
    "tariff",
    "impact",
    oldFile,
    newFile,
    "--portfolio",
    portfolioFile,
    ...(productsDirectory === undefined ? [] : ["--products", productsDirectory]),
    ...(settings.pricing_date === undefined ? [] : ["--date", settings.pricing_date]),
    ...(impact.cap_increase_percent === undefined ? [] : [`--cap-increase=${impact.cap_increase_percent}%`]),
    ...(impact.cap_decrease_percent === undefined ? [] : [`--cap-decrease=${impact.cap_decrease_percent}%`]),
    ...(target === undefined ? [] : [`--target=${signedPercent(target.percent)}`]),
    ...(target === undefined || (target.on ?? WHOLE_PREMIUM) === WHOLE_PREMIUM ? [] : ["--factor-on", target.on!]),
    ...(impact.percent_edges === undefined ? [] : [`--bands=${impact.percent_edges.join(",")}`]),
    ...(impact.top_movers === undefined ? [] : ["--top", String(impact.top_movers)])
  ]
}

/** A command line as a shell takes it: arguments with spaces or shell characters single-quoted. */
export const shellLine = (words: ReadonlyArray<string>): string =>
  words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(" ")
