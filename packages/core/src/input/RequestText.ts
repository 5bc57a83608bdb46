/**
 * Text hygiene for what clients send: every string arrives NFC-normalised (a
 * Danish "å" sent decomposed is stored as the one character), and a string
 * carrying what only hides or corrupts text — control characters other than
 * tab, unpaired surrogates, bidirectional overrides and isolates — is refused,
 * naming its field.
 */
import type { Violation } from "../Errors.js"
import { fieldPath } from "./FieldPath.js"

// C0 except tab, DEL and C1, the bidi embeddings/overrides (U+202A–E) and isolates (U+2066–9)
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this pattern is for
const CONTROL_OR_BIDI = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
// printable ASCII and tab: nothing to refuse, nothing to normalise — the common case, decided by one test
const PLAIN = /^[\t\x20-\x7E]*$/

/** Why a string may not be accepted, or undefined when it may. */
export const textProblem = (text: string): string | undefined => {
  if (PLAIN.test(text)) return undefined
  if (UNPAIRED_SURROGATE.test(text)) return "must not contain unpaired surrogates (malformed UTF-16)"
  if (CONTROL_OR_BIDI.test(text)) return "must not contain control characters or bidirectional overrides"
  return undefined
}

const normalised = (text: string): string => (PLAIN.test(text) ? text : text.normalize("NFC"))

/** The outcome of cleaning a client's input: the input with its strings normalised, and what it may not carry. */
export interface CleanedText {
  readonly input: unknown
  readonly violations: ReadonlyArray<Violation>
}

/**
 * Checks every string of a JSON value (keys too) and NFC-normalises it. The
 * value is copied only where a string changes; refused strings are kept as they
 * were, so the Schema still reports every other problem of the request.
 */
export const cleanText = (input: unknown): CleanedText => {
  const violations: Array<Violation> = []
  // the path of the value being visited: one array pushed and popped, read only for a violation
  const path: Array<PropertyKey> = []
  const refuse = (message: string) => violations.push({ field: fieldPath(path) || "body", message })
  const visit = (value: unknown): unknown => {
    if (typeof value === "string") {
      const problem = textProblem(value)
      if (problem === undefined) return normalised(value)
      refuse(problem)
      return value
    }
    if (typeof value !== "object" || value === null) return value
    if (Array.isArray(value)) {
      let copy: Array<unknown> | undefined
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index]
        path.push(index)
        const cleaned = visit(item)
        path.pop()
        if (cleaned === item) continue
        copy ??= [...value]
        copy[index] = cleaned
      }
      return copy ?? value
    }
    let copy: Record<string, unknown> | undefined
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue
      const item = (value as Record<string, unknown>)[key]
      path.push(key)
      const keyProblem = textProblem(key)
      if (keyProblem !== undefined) refuse(`is a field name that ${keyProblem.replace("must not contain", "contains")}`)
      const cleanedKey = keyProblem === undefined ? normalised(key) : key
      const cleaned = visit(item)
      path.pop()
      if (cleaned === item && cleanedKey === key) continue
      copy ??= { ...(value as Record<string, unknown>) }
      if (cleanedKey !== key) delete copy[key]
      Object.defineProperty(copy, cleanedKey, { value: cleaned, enumerable: true, writable: true, configurable: true })
    }
    return copy ?? value
  }
  const cleaned = visit(input)
  return { input: cleaned, violations }
}
