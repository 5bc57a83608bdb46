/**
 * Records what the service answers every golden case, into test/golden/answers.jsonl.gz, which
 * GoldenAnswers.test.ts holds the service to.
 *
 * Run it only when an answer is meant to change (or when cases are added to GoldenCases.ts), and then read
 * the test's report of what changed before committing the new record:
 *
 *   npx tsc -b && node test/dist/golden/capture.js
 *
 * (from the repository's root; it runs compiled, from test/dist/golden, as the packages it answers with do.)
 * Moving the products into data documents (issue 44) must not change the record at all.
 */
import { join } from "node:path"
import { goldenCases } from "./GoldenCases.js"
import { RECORD_FILE_NAME, writeRecord } from "./GoldenRecord.js"
import { answerAll } from "./GoldenService.js"

// this file runs as test/dist/golden/capture.js: the record lives beside its source, test/golden
const file = join(import.meta.dirname, "..", "..", "golden", RECORD_FILE_NAME)
const cases = goldenCases()
const answers = await answerAll(cases)
writeRecord(
  file,
  cases.map((golden, index) => ({ ...golden, answer: answers[index]! }))
)
process.stdout.write(`recorded the answers of ${cases.length} cases in ${file}\n`)
