/**
 * The languages kasko writes in — Danish, the products' own and the default, and English — and which of them a
 * client asked for in its `Accept-Language` (RFC 9110 §12.5.4): language ranges with `q` weights, matched by basic
 * filtering (RFC 4647 §3.3.1: `en` and `en-GB` take English, `*` any language), `q=0` refusing a language. The
 * highest-weighted language kasko writes wins, Danish on a tie; Danish too when nothing matches or the header is
 * absent or unreadable: a client is never refused for its header.
 * @module
 */

/** The languages kasko writes in, as BCP 47 primary tags: Danish (the default) and English. */
export const LANGUAGES = ["da", "en"] as const
/** A language kasko writes in: `da` or `en`. */
export type Language = (typeof LANGUAGES)[number]

/** The language of an answer when the client asks for none kasko writes: Danish, the products' language. */
export const DEFAULT_LANGUAGE: Language = "da"

/** One language range of the header and its weight. */
interface WeightedRange {
  readonly range: string
  readonly q: number
}

// RFC 9110 §12.4.2: a weight is 0 to 1 with at most three decimals
const WEIGHT = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/
// RFC 4647 §2.1: `*` or 1–8 letters, then subtags of 1–8 letters and digits
const RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/

/** The ranges of an Accept-Language header, lower-cased; a malformed element is left out, not the whole header. */
const rangesOf = (header: string): Array<WeightedRange> =>
  header.split(",").flatMap((element) => {
    const [rawRange = "", ...parameters] = element.split(";").map((part) => part.trim())
    const range = rawRange.toLowerCase()
    if (!RANGE.test(range)) return []
    let q = 1
    for (const parameter of parameters) {
      const [name = "", value = ""] = parameter.split("=").map((part) => part.trim())
      if (name.toLowerCase() !== "q") continue
      if (!WEIGHT.test(value)) return []
      q = Number(value)
    }
    return [{ range, q }]
  })

/** Whether a range matches a language by basic filtering: equal, a prefix of it ending at a `-`, or `*`. */
const matches = (range: string, language: Language): boolean =>
  range === "*" || range === language || range.startsWith(`${language}-`)

/**
 * A language's weight: that of the most specific range that matches it (RFC 9110: `en-GB;q=0.8, en;q=0.2` weighs
 * English at 0.8, `*;q=0.5, en;q=0` refuses it), 0 when none does. A regional range refused with `q=0` refuses that
 * region's variant, not the language kasko writes untagged by region: `en, en-GB;q=0` is English.
 */
const weightOf = (ranges: ReadonlyArray<WeightedRange>, language: Language): number => {
  let best: WeightedRange | undefined
  for (const candidate of ranges) {
    if (!matches(candidate.range, language)) continue
    if (candidate.q === 0 && candidate.range.startsWith(`${language}-`)) continue
    const specificity = (range: string) => (range === "*" ? 0 : range.length)
    if (
      best === undefined ||
      specificity(candidate.range) > specificity(best.range) ||
      (specificity(candidate.range) === specificity(best.range) && candidate.q > best.q)
    )
      best = candidate
  }
  return best?.q ?? 0
}

/**
 * The language to answer a request in, from its `Accept-Language` header (absent, one value or Node's list):
 * the one kasko writes with the highest weight above 0, Danish on a tie or when none has one.
 */
export const negotiateLanguage = (acceptLanguage: string | ReadonlyArray<string> | undefined): Language => {
  if (acceptLanguage === undefined) return DEFAULT_LANGUAGE
  const ranges = rangesOf(typeof acceptLanguage === "string" ? acceptLanguage : acceptLanguage.join(","))
  let chosen: Language = DEFAULT_LANGUAGE
  let chosenWeight = 0
  for (const language of LANGUAGES) {
    const weight = weightOf(ranges, language)
    if (weight > chosenWeight) {
      chosen = language
      chosenWeight = weight
    }
  }
  return chosen
}
