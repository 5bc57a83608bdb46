// `pnpm bench`: runs every benchmark section in one process, prints one table
// per section and writes all figures to results/<timestamp>.json.
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { runCoreBench } from "./core.mjs"
import { runStorageBench } from "./storage.mjs"

const format = (value) => (typeof value === "number" ? (value >= 100 ? Math.round(value).toLocaleString("en") : value.toFixed(3)) : value)

const printTable = (title, rows) => {
  console.log(`\n${title}`)
  console.table(rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, format(value)]))))
}

const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown" }
console.log(`kasko benchmarks — Node ${machine.node}, ${machine.cpus} × ${machine.cpu}`)

const core = await runCoreBench()
printTable("1. Core: offers priced through the public API (512 different requests; ratios against the hand-written limit and json-rules-engine)", core)

const storage = await runStorageBench()
printTable("Storage through the QuoteStore port (single-quote transactions; ratios against the in-memory store)", storage)

const results = { measured_at: new Date().toISOString(), machine, core, storage }
const directory = join(import.meta.dirname, "results")
mkdirSync(directory, { recursive: true })
const file = join(directory, `${results.measured_at.replace(/[:.]/g, "-")}.json`)
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`)
console.log(`\nwritten to ${file}`)
