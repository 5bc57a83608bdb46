/**
 * The service answers every golden case exactly as recorded in answers.jsonl.gz (issue 44): status,
 * Content-Type and body, byte for byte. The record was made by capture.ts before the products moved into
 * data documents; a failure names the first cases whose answers changed and shows how.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { goldenCases, kindOf } from "./GoldenCases.js"
import { describeDifference, readRecord, RECORD_FILE_NAME } from "./GoldenRecord.js"
import { answerAll } from "./GoldenService.js"

const RECORD = join(import.meta.dirname, RECORD_FILE_NAME)
const SHOWN = 3

// 2 products × 2 features × 2 policy holders × 2 vehicle users × 2 vehicle owners × 5 usages × 2 vehicle types
// × 3 payment plans (1, 12, left out) × 4 prices × 5 youngest drivers
const CASES_BY_KIND = { product: 4, offer: 19_200, "bad-offer": 47, "bad-quote": 20, quote: 112 }

const countByKind = (cases: ReadonlyArray<{ key: string }>) => {
  const counts: Record<string, number> = {}
  for (const { key } of cases) counts[kindOf(key)] = (counts[kindOf(key)] ?? 0) + 1
  return counts
}

const recorded = readRecord(RECORD)

describe("the golden record of the service's answers (issue 44)", () => {
  it("holds every case of the grid, as many of each kind as it has", () => {
    expect(countByKind(goldenCases())).toEqual(CASES_BY_KIND)
    expect(countByKind(recorded)).toEqual(CASES_BY_KIND)
  })

  it("records the requests the cases make, in their order", () => {
    const cases = goldenCases()
    const differing = cases.findIndex(
      (golden, index) =>
        JSON.stringify(golden) !== JSON.stringify({ key: recorded[index]?.key, request: recorded[index]?.request })
    )
    expect(
      differing === -1
        ? undefined
        : `case ${differing}: ${cases[differing]?.key ?? "(none)"}; the record has ${recorded[differing]?.key ?? "(none)"}`,
      "GoldenCases.ts asks what the record did not: run capture.ts (see there) if the change is meant"
    ).toBeUndefined()
  })

  // ~8 s on a core of its own: the timeout is there only so that a machine busy with other suites does not fail it
  it("answers every recorded request as it was answered then", { timeout: 300_000 }, async () => {
    const answers = await answerAll(recorded)
    const differing = recorded.flatMap((golden, index) => {
      const answer = answers[index]!
      const same =
        answer.status === golden.answer.status &&
        answer.contentType === golden.answer.contentType &&
        answer.body === golden.answer.body
      return same ? [] : [{ key: golden.key, golden, answer }]
    })
    const kinds = Object.entries(countByKind(differing))
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ")
    const report = [
      `${differing.length} of ${recorded.length} answers differ from ${RECORD_FILE_NAME} (${kinds}); the first ${Math.min(SHOWN, differing.length)}:`,
      ...differing.slice(0, SHOWN).map(({ golden, answer }) => describeDifference(golden, answer))
    ].join("\n\n")
    expect(differing.length, report).toBe(0)
  })
})
