/**
 * How the workbench's reports (an impact test, a tariff diff) write their
 * figures, in the command's text and on the workbench page alike: kroner
 * through the core's one formatter (`Money.formatKroner`), counts with
 * thousands apart, per cents with a true minus sign. Browser-safe.
 * @module
 */
import { Money } from "@kasko/core/actuarial"

/** Kroner (two decimals, as the report holds them) as the reports print them: 1234567.8 → "1 234 567.80", −5 → "−5.00". */
export const money = (kroner: number): string => Money.formatKroner(Money.oreOfKroner(kroner), Money.PRINTED)

/** Kroner as plain digits, as a CSV cell or a spreadsheet takes them: 1234567.8 → "1234567.80", −5 → "-5.00". */
export const plainMoney = (kroner: number): string => Money.formatKroner(Money.oreOfKroner(kroner))

/** Whole kroner (a price a year or a month), thousands apart: 14337 → "14 337". */
export const wholeMoney = (kroner: number): string =>
  Money.formatKroner(Money.oreOfKroner(kroner), { thousands: " ", decimals: 0 })

/** A change in kroner: "+" above zero. */
export const signedMoney = (kroner: number): string => (kroner > 0 ? `+${money(kroner)}` : money(kroner))

/** A whole number with thousands apart: 12345 → "12 345". */
export const count = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ")

/** A per cent with its sign ("+", "−"), `decimals` after the point; "—" when there is none. */
export const percent = (value: number | null | undefined, decimals = 2): string =>
  value === null || value === undefined
    ? "—"
    : `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value).toFixed(decimals)} %`

/** "1 case", "2 cases". */
export const plural = (value: number, word: string): string => `${count(value)} ${word}${value === 1 ? "" : "s"}`
