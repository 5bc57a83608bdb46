/** Golden tables read by the one CSV reader: what is skipped, and the line a malformed file is refused at. */
import { describe, expect, it } from "vitest"
import { CsvFormatError } from "../src/CsvRows.js"
import { formatGoldenTable, type GoldenCase, parseGoldenTable } from "../src/GoldenTable.js"

const CASE: GoldenCase = {
  name: 'leasing, "quoted" case',
  product_name: "insurance-car-leasing",
  feature: "standard",
  pricing_date: "2026-03-02",
  parameters: { vehicle_price: "200000", payments_per_year: "12" },
  expected: { annually: 7600, monthly: 665, premiums: { kasko: "4000.00", ansvar: "1800.00" } }
}

const HEADER =
  "case,product_name,feature,pricing_date,payments_per_year,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price,youngest_user_age,youngest_user_birthdate,annually,monthly,premiums"
const ROW =
  "one,insurance-car-leasing,standard,2026-03-02,1,person,personbil,person,organization,privat_person_koersel,200000,28,,7600,665,kasko=4000.00"

/** What parsing the text refuses it with: the line and the problem. */
const refusal = (text: string) => {
  try {
    parseGoldenTable(text)
  } catch (error) {
    expect(error).toBeInstanceOf(CsvFormatError)
    return (error as CsvFormatError).message
  }
  throw new Error("parsed")
}

describe("a golden table", () => {
  it("reads back what formatGoldenTable writes, quotes and all", () => {
    expect(parseGoldenTable(formatGoldenTable([CASE]))).toEqual([CASE])
  })

  it("skips a byte order mark, blank lines and lines starting with #, and trims cells", () => {
    const text = `\uFEFF# the reference cases\n${HEADER}\n\n  # a note\n${ROW.replace("one,", " one ,")}\r\n`
    const [only, ...rest] = parseGoldenTable(text)
    expect(rest).toEqual([])
    expect(only).toMatchObject({ name: "one", parameters: { vehicle_price: "200000", youngest_user_age: "28" } })
    expect(only!.expected).toEqual({ annually: 7600, monthly: 665, premiums: { kasko: "4000.00" } })
  })

  it("is refused at the line of a row with another number of fields than the header", () => {
    expect(refusal(`${HEADER}\n\n${ROW}\n${ROW},extra\n`)).toBe("line 4: has 17 fields, the header 16")
  })

  it("is refused at the line of a case without a name, and of premiums that are not coverage=kroner.øre", () => {
    expect(refusal(`${HEADER}\n# a comment\n${ROW}\n${ROW.replace("one,", ",")}\n`)).toBe(
      "line 4: column case is empty"
    )
    expect(refusal(`${HEADER}\n${ROW.replace("kasko=4000.00", "kasko=4000")}\n`)).toBe(
      'line 2: premiums entry "kasko=4000" is not coverage=kroner.øre'
    )
  })

  it("is refused at the line where a quoted field opens and never closes, after a quoted line break", () => {
    const multiLine = ROW.replace("one,", '"one\nand two",')
    expect(parseGoldenTable(`${HEADER}\n${multiLine}\n`)[0]!.name).toBe("one\nand two")
    expect(refusal(`${HEADER}\n${multiLine}\n${ROW.replace("one,", '"open,')}\n`)).toBe(
      "line 4: a quoted field is never closed"
    )
  })
})
