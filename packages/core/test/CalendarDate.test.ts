import { describe, expect, it } from "vitest"
import { ageOn, calendarDateOfMillis, isCalendarDate, millisOfDateTime } from "../src/input/CalendarDate.js"

describe("calendar dates", () => {
  it.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["1900-02-29", false],
    ["2000-02-29", true],
    ["2026-12-31", true],
    ["2026-00-10", false],
    ["2026-1-10", false]
  ])("%s is a real date: %s", (value, valid) => {
    expect(isCalendarDate(value)).toBe(valid)
  })

  it("counts a birthday on its day", () => {
    expect(ageOn("2000-03-02", "2026-03-02")).toBe(26)
    expect(ageOn("2000-03-03", "2026-03-02")).toBe(25)
    expect(ageOn("2004-02-29", "2026-02-28")).toBe(21)
    expect(ageOn("2004-02-29", "2026-03-01")).toBe(22)
  })

  it("takes the UTC date of an instant", () => {
    expect(calendarDateOfMillis(Date.parse("2026-03-02T23:59:59.999Z"))).toBe("2026-03-02")
  })

  it.each([
    ["2026-03-02T09:00:00Z", Date.parse("2026-03-02T09:00:00Z")],
    ["2026-03-02T09:00Z", Date.parse("2026-03-02T09:00:00Z")],
    ["2026-03-02T09:00:00.123+01:00", Date.parse("2026-03-02T08:00:00.123Z")],
    ["2024-02-29T23:59:59Z", Date.parse("2024-02-29T23:59:59Z")],
    // Date.parse rolls these over into other days; they name no instant
    ["2026-02-31T00:00:00Z", undefined],
    ["2026-11-31T00:00:00Z", undefined],
    ["2026-03-02T24:00:00Z", undefined],
    ["2026-03-02T25:00:00Z", undefined],
    ["2026-03-02T09:60:00Z", undefined],
    ["2026-03-02T09:00:60Z", undefined],
    ["2026-03-02T09:00:00+24:00", undefined],
    ["2026-03-02 09:00:00Z", undefined],
    ["2026-03-02T09:00:00", undefined]
  ])("the date-time %s names the instant %s", (value, millis) => {
    expect(millisOfDateTime(value)).toBe(millis)
  })
})
