/**
 * The golden record on disk — gzip'd JSON lines, a case a line: its key, its request, the answer — and how an
 * answer differs from the one recorded, told as a line diff of both answers with their bodies pretty-printed.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { gunzipSync, gzipSync } from "node:zlib"
import type { GoldenCase } from "./GoldenCases.js"
import type { GoldenAnswer } from "./GoldenService.js"

/** A case and what the service answered it. */
export interface RecordedCase extends GoldenCase {
  readonly answer: GoldenAnswer
}

/** The record's file name, in test/golden. */
export const RECORD_FILE_NAME = "answers.jsonl.gz"

/** Writes the record: a JSON line per case, in the cases' order, gzip'd. */
export const writeRecord = (file: string, cases: ReadonlyArray<RecordedCase>): void => {
  const lines = cases.map(({ key, request, answer }) => `${JSON.stringify({ key, request, answer })}\n`).join("")
  writeFileSync(file, gzipSync(lines, { level: 9 }))
}

/** Reads the record back. */
export const readRecord = (file: string): Array<RecordedCase> =>
  gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as RecordedCase)

/** An answer as lines to compare: status and Content-Type, then the body, pretty-printed when it is JSON. */
const answerLines = (answer: GoldenAnswer, pretty: boolean): Array<string> => {
  let body = answer.body
  if (pretty) {
    try {
      body = JSON.stringify(JSON.parse(answer.body), null, 2)
    } catch {
      // not JSON: compared as it is
    }
  }
  return [`status ${answer.status}`, `content-type ${answer.contentType}`, "", ...body.split("\n")]
}

const CONTEXT = 3

/** A unified diff of two lists of lines, `-` recorded and `+` answered now, with a few lines around each change. */
const lineDiff = (recorded: ReadonlyArray<string>, actual: ReadonlyArray<string>): string => {
  // the longest common subsequence, from the ends: common[i][j] for recorded[i..] and actual[j..]
  const common = Array.from({ length: recorded.length + 1 }, () => new Array<number>(actual.length + 1).fill(0))
  for (let i = recorded.length - 1; i >= 0; i--)
    for (let j = actual.length - 1; j >= 0; j--)
      common[i]![j] =
        recorded[i] === actual[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!)
  const lines: Array<{ mark: " " | "-" | "+"; text: string }> = []
  let i = 0
  let j = 0
  while (i < recorded.length || j < actual.length) {
    if (i < recorded.length && j < actual.length && recorded[i] === actual[j]) {
      lines.push({ mark: " ", text: recorded[i++]! })
      j++
    } else if (i < recorded.length && (j === actual.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      lines.push({ mark: "-", text: recorded[i++]! })
    } else {
      lines.push({ mark: "+", text: actual[j++]! })
    }
  }
  const near = lines.map((_, index) =>
    lines.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((line) => line.mark !== " ")
  )
  return lines
    .flatMap((line, index) =>
      near[index] ? [`${line.mark} ${line.text}`] : index === 0 || near[index - 1] ? ["  …"] : []
    )
    .join("\n")
}

/** How an answer differs from the recorded one, for a reader: the case, its request, and the diff. */
export const describeDifference = (recorded: RecordedCase, actual: GoldenAnswer): string => {
  const pretty = answerLines(recorded.answer, true).join("\n") !== answerLines(actual, true).join("\n")
  const { method, path, body } = recorded.request
  return [
    `case: ${recorded.key}`,
    `request: ${method} ${path}${body === undefined ? "" : ` ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`}`,
    pretty ? "answer (- recorded, + now; bodies pretty-printed):" : "answer (- recorded, + now; bodies as sent):",
    lineDiff(answerLines(recorded.answer, pretty), answerLines(actual, pretty))
  ].join("\n")
}
