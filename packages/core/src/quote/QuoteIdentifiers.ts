/**
 * The formats of kasko's identifiers: quote ids (UUID v7, time-ordered for
 * index locality), policy and quote numbers (digit strings with a Luhn check
 * digit, quote numbers printed in groups of four), signing secrets. Pure: the
 * random bytes come from the caller (the IdGenerator port's layers).
 * @module
 */

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes))

/** The Luhn check digit of a string of digits: what policy and quote numbers end with. */
export const luhnCheckDigit = (digits: string): string => {
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    const digit = Number(digits[digits.length - 1 - index])
    const weighted = index % 2 === 0 ? digit * 2 : digit
    sum += weighted > 9 ? weighted - 9 : weighted
  }
  return String((10 - (sum % 10)) % 10)
}

/** True when the last digit is the Luhn check digit of the others. */
export const hasValidCheckDigit = (value: string): boolean =>
  /^\d{2,}$/.test(value) && luhnCheckDigit(value.slice(0, -1)) === value.slice(-1)

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")

/** UUID v7 (RFC 9562) from a millisecond timestamp and 10 random bytes. */
export const uuidV7 = (epochMillis: number, random: Uint8Array): string => {
  const bytes = new Uint8Array(16)
  let time = epochMillis
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256
    time = Math.floor(time / 256)
  }
  bytes.set(random.subarray(0, 10), 6)
  bytes[6] = 0x70 | (bytes[6]! & 0x0f)
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const text = hex(bytes)
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`
}

const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** True for a UUID in its canonical lower-case form (quote ids). */
export const isQuoteId = (value: string): boolean => UUID_FORM.test(value)

/** `count` random decimal digits, the first never 0, drawn without modulo bias. */
const randomDigits = (count: number, randomBytes: (size: number) => Uint8Array): string => {
  let digits = ""
  while (digits.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte >= 250) continue
      const digit = byte % 10
      if (digits.length === 0 && digit === 0) continue
      digits += String(digit)
      if (digits.length === count) break
    }
  }
  return digits
}

/** Digits followed by their Luhn check digit: a policy or quote number from its random digits. */
export const withCheckDigit = (digits: string): string => digits + luhnCheckDigit(digits)

/** Prints a quote number in groups of four digits. */
export const groupsOfFour = (digits: string): string => digits.replace(/(\d{4})(?=\d)/g, "$1 ")

/** A policy number: nine random digits (the first never 0) and their check digit. */
export const newPolicyNumber = (randomBytes: (size: number) => Uint8Array): string =>
  withCheckDigit(randomDigits(9, randomBytes))

/** A quote number: fifteen random digits and their check digit, in groups of four. */
export const newQuoteNumber = (randomBytes: (size: number) => Uint8Array): string =>
  groupsOfFour(withCheckDigit(randomDigits(15, randomBytes)))

/** A Standard Webhooks signing secret: `whsec_` and the bytes (32 of them) in base64. */
export const signingSecretOf = (bytes: Uint8Array): string => `whsec_${base64(bytes)}`
