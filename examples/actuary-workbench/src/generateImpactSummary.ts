#!/usr/bin/env node
/**
 * Writes impact/portfolio-10000.csv (the seeded book) and
 * impact/expected-summary.json (what the impact test reports on it):
 * `pnpm --filter @kasko/example-actuary-workbench impact:generate`. The summary
 * is a record to review, not an oracle: test/ImpactGolden.test.ts checks its old
 * totals against the by-hand reference tariff, and the impact's figures are
 * checked against the plain pricing function in packages/workbench/test.
 */
import { generatedPortfolioLines } from "@kasko/workbench"
import { writeFileSync } from "node:fs"
import { BOOK, impactOfExample, PORTFOLIO_FILE, SUMMARY_FILE } from "./impactExample.js"

writeFileSync(PORTFOLIO_FILE, `${[...generatedPortfolioLines(BOOK)].join("\n")}\n`)
const result = await impactOfExample()
writeFileSync(SUMMARY_FILE, `${JSON.stringify(result, null, 2)}\n`)
process.stdout.write(`wrote ${BOOK.size} policies to ${PORTFOLIO_FILE} and their impact to ${SUMMARY_FILE}\n`)
