/**
 * `kasko portfolio generate` and `kasko tariff impact` from the command line: a file, the store, and
 * what goes wrong; a large book streamed to standard output in bounded memory.
 */
import { QuoteStore } from "@kasko/core"
import { TariffDocuments, Tariff } from "@kasko/core/actuarial"
import { runCli } from "@kasko/server"
import { SqliteStores } from "@kasko/sqlite"
import { makeFixtures, variantOf } from "@kasko/store-contracts"
import { PORTFOLIO_DISTRIBUTIONS, portfolioImpact } from "@kasko/workbench"
import { parse } from "csv-parse/sync"
import { Effect, Result } from "effect"
import { spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { once } from "node:events"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const SHIPPED = join(ROOT, "packages", "core", "tariffs")
const LEASING_V1 = join(SHIPPED, "insurance-car-leasing", "v1.json")
const REBALANCE = join(ROOT, "examples", "actuary-workbench", "impact", "insurance-car-leasing-v2-rebalance.json")
const KASKO = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const directory = temporaryDirectory("kasko-impact-")
afterAll(() => directory.remove())

const kasko = async (environment: Record<string, string>, ...args: Array<string>) => {
  Object.assign(process.env, environment)
  try {
    return await runCli(args)
  } finally {
    for (const key of Object.keys(environment)) delete process.env[key]
  }
}

const generate = (size: number, seed: number) =>
  runCli(["portfolio", "generate", "--size", String(size), "--seed", String(seed), "--as-of", "2027-01-01"])

describe("kasko portfolio generate", () => {
  it("writes the same book for the same seed, another for another seed", async () => {
    const [first, again, other] = await Promise.all([generate(300, 7), generate(300, 7), generate(300, 8)])
    expect(first.exitCode).toBe(0)
    expect(again.stdout).toBe(first.stdout)
    expect(other.stdout).not.toBe(first.stdout)
    const lines = first.stdout.trimEnd().split("\n")
    expect(lines).toHaveLength(301)
    expect(lines[0]).toBe(
      "policy_id,product_name,feature,payments_per_year,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price,youngest_user_age,youngest_user_birthdate,weight"
    )
    expect(lines[1]).toMatch(/^P0000001,insurance-car-(leasing|standalone),(standard|premium),/)
  })

  it("writes the same book without --as-of on any day: its ages hold on the documented 2027-01-01", async () => {
    const dated = await generate(300, 11)
    const undated = await runCli(["portfolio", "generate", "--size", "300", "--seed", "11"])
    expect(undated.exitCode).toBe(0)
    expect(undated.stdout).toBe(dated.stdout)
    expect((await runCli(["portfolio", "generate", "--help"])).stdout).toContain("default 2027-01-01")
  })

  it("states its distributions in its help, as the generator has them", async () => {
    const help = await runCli(["portfolio", "generate", "--help"])
    expect(help.stdout.replace(/\s+/g, " ")).toContain(PORTFOLIO_DISTRIBUTIONS.replace(/\s+/g, " "))
  })

  it("writes a file with --out, saying so on standard error", async () => {
    const out = directory.newFile("book.csv")
    const result = await runCli([
      "portfolio",
      "generate",
      "--size",
      "50",
      "--seed",
      "1",
      "--as-of",
      "2027-01-01",
      "--out",
      out
    ])
    expect(result).toMatchObject({ exitCode: 0, stdout: "" })
    expect(result.stderr).toBe(`wrote 50 policies (seed 1, ages as of 2027-01-01) to ${out}\n`)
    expect(readFileSync(out, "utf8")).toBe((await generate(50, 1)).stdout)
  })
})

describe("kasko portfolio generate to standard output", () => {
  /**
   * The command run as a process, its standard output piped here and digested as it comes; its peak
   * resident memory (VmHWM) read from /proc as it ends. V8 is held to a small young generation and
   * old space, so the peak is what the process keeps rather than how lazily V8 collects: a book
   * built whole as one string (24 MB for 200 000 policies, and its lines beside) does not even fit.
   */
  const generated = async (size: number, ...more: Array<string>) => {
    const peak = directory.newFile(`peak-${size}-${more.length}.txt`)
    const recorder = directory.newFile(`record-peak-${size}-${more.length}.mjs`)
    writeFileSync(
      recorder,
      `import { readFileSync, writeFileSync } from "node:fs"
process.on("exit", () => writeFileSync(${JSON.stringify(peak)}, /VmHWM:\\s*(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]))
`
    )
    const child = spawn(
      process.execPath,
      [
        "--max-old-space-size=32",
        "--max-semi-space-size=1",
        "--import",
        pathToFileURL(recorder).href,
        KASKO,
        ...["portfolio", "generate", "--size", String(size), "--seed", "1", ...more]
      ],
      { stdio: ["ignore", "pipe", "pipe"] }
    )
    const digest = createHash("sha256")
    let bytes = 0
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      digest.update(chunk)
      bytes += chunk.length
    })
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, "close")) as [number]
    return { code, stderr, bytes, sha256: digest.digest("hex"), peakBytes: Number(readFileSync(peak, "utf8")) * 1024 }
  }

  it("streams a large book as standard output drains: its peak memory exceeds a small book's by less than the book, its bytes are --out's", async () => {
    const small = await generated(2_000)
    const large = await generated(200_000)
    expect(small).toMatchObject({ code: 0, stderr: "" })
    expect(large).toMatchObject({ code: 0, stderr: "" })
    expect(large.bytes).toBeGreaterThan(20_000_000)
    expect(large.peakBytes - small.peakBytes).toBeLessThan(large.bytes)
    // the same bytes as --out writes to its file
    const out = directory.newFile("streamed-book.csv")
    expect(await generated(200_000, "--out", out)).toMatchObject({ code: 0, bytes: 0 })
    const file = readFileSync(out)
    expect(file.length).toBe(large.bytes)
    expect(createHash("sha256").update(file).digest("hex")).toBe(large.sha256)
  }, 60_000)

  it("stops quietly when the reader goes away (kasko portfolio generate | head)", () => {
    const run = spawnSync(
      "sh",
      ["-c", `"${process.execPath}" "${KASKO}" portfolio generate --size 200000 --seed 1 | head -2`],
      {
        encoding: "utf8"
      }
    )
    expect(run.stderr).toBe("")
    expect(run.stdout.split("\n")).toHaveLength(3)
  })

  it("says why, and exits 1, when --out cannot be written", () => {
    const out = join(directory.path, "no-such-directory", "book.csv")
    const run = spawnSync(
      process.execPath,
      [KASKO, "portfolio", "generate", "--size", "20000", "--seed", "1", "--out", out],
      { encoding: "utf8" }
    )
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`kasko portfolio generate: ENOENT: no such file or directory, open '${out}'\n`)
  })
})

describe("kasko tariff impact", () => {
  const book = directory.newFile("impact-book.csv")
  const written = generate(3_000, 99).then((result) => writeFileSync(book, result.stdout))
  const tariffs = () => {
    const shipped = TariffDocuments.decodeTariffs(TariffDocuments.SHIPPED_TARIFF_DOCUMENTS)
    const rebalance = Result.getOrThrow(Tariff.decodeTariff(JSON.parse(readFileSync(REBALANCE, "utf8"))))
    return { shipped, rebalance }
  }

  it("prints as JSON what portfolioImpact reports for the same versions and book", async () => {
    await written
    const result = await runCli([
      "tariff",
      "impact",
      SHIPPED,
      REBALANCE,
      "--portfolio",
      book,
      "--cap-increase",
      "10%",
      "--json"
    ])
    expect(result.exitCode).toBe(0)
    const { shipped, rebalance } = tariffs()
    const expected = await portfolioImpact({
      old: shipped,
      new: [rebalance],
      portfolio: { file: book },
      impact: { cap_increase_percent: 10 }
    })
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(expected)))
    // the new side names only leasing: the standalone policies are counted apart, not priced
    expect(expected.compared).toEqual([
      { product_name: "insurance-car-leasing", old_version: "v1", new_version: "v2-rebalance" }
    ])
    expect(expected.report.not_compared).toEqual([
      { product_name: "insurance-car-standalone", cases: 3_000 - expected.report.totals.policies }
    ])
  })

  it("runs from the command's bundle: `kasko tariff impact` reads none of Effect's modules one by one", async () => {
    await written
    // every module the process loads is written down (worker threads inherit the --import)
    const loads = directory.newFile("loads.txt")
    const recorder = directory.newFile("record-loads.mjs")
    writeFileSync(
      recorder,
      `import { appendFileSync } from "node:fs"
import { registerHooks } from "node:module"
registerHooks({ load: (url, context, next) => { appendFileSync(${JSON.stringify(loads)}, url + "\\n"); return next(url, context) } })
`
    )
    const run = spawnSync(
      process.execPath,
      ["--import", pathToFileURL(recorder).href, KASKO, "tariff", "impact", SHIPPED, REBALANCE, "--portfolio", book],
      { encoding: "utf8" }
    )
    expect(run.stderr).toBe("")
    expect(run.status).toBe(0)
    const loaded = readFileSync(loads, "utf8").trim().split("\n")
    expect(loaded.some((url) => url.includes("/packages/server/dist/cli/"))).toBe(true)
    expect(loaded.some((url) => url.includes("/packages/workbench/dist/worker/ImpactWorker.mjs"))).toBe(true)
    expect(loaded.filter((url) => /\/node_modules\/effect\/|\/packages\/core\/dist\//.test(url))).toEqual([])
  })

  it("prints text tables, and CSV with the same totals", async () => {
    await written
    const text = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", book, "--top", "3"])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toMatch(/^Rate impact of insurance-car-leasing v1 → v2-rebalance, both priced on 2027-01-01\n/)
    for (const heading of [
      "Change per policy",
      "By variant",
      "By youngest driver's age",
      "Largest increases",
      "Largest decreases"
    ])
      expect(text.stdout).toContain(`\n${heading}\n`)
    const json = JSON.parse(
      (await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", book, "--json"])).stdout
    )
    const csv = parse(
      (await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", book, "--csv"])).stdout,
      {
        columns: true
      }
    ) as Array<Record<string, string>>
    const total = csv.find((row) => row["section"] === "total")!
    expect(Number(total["old_kroner"])).toBe(json.report.totals.old_kroner)
    expect(Number(total["new_kroner"])).toBe(json.report.totals.new_kroner)
    expect(csv.filter((row) => row["section"] === "band")).toHaveLength(json.report.bands.length)
    expect(csv.filter((row) => row["section"] === "increase")).toHaveLength(10)
  })

  it("reports the factor that hits a target, on the whole premium and on a coverage", async () => {
    await written
    const premium = JSON.parse(
      (await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", book, "--target", "+3%", "--json"]))
        .stdout
    )
    expect(premium.target).toMatchObject({ on: "premium", target_percent: 3, within_one_krone: true })
    expect(premium.target.passes).toBeGreaterThan(0)
    const onKasko = await runCli([
      "tariff",
      "impact",
      LEASING_V1,
      REBALANCE,
      "--portfolio",
      book,
      "--target",
      "-1%",
      "--factor-on",
      "kasko",
      "--cap-decrease",
      "-5%"
    ])
    expect(onKasko.stdout).toMatch(/Target −1\.0000 % on the capped premium: a factor of 0\.\d+ on the rates of kasko/)
    expect(onKasko.stdout).toMatch(/found in \d+ re-pricings? of the book/)
  })

  it("exits 1 for a target the caps put out of reach: the report on standard output, why on standard error", async () => {
    await written
    const options = ["--cap-increase", "5%", "--cap-decrease", "5%", "--target", "+8%"]
    const command = ["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", book, ...options]
    const printed = await runCli([...command, "--json"])
    expect(printed.exitCode).toBe(1)
    const target = JSON.parse(printed.stdout).target
    expect(target).toMatchObject({ reachable: false, passes: 0, within_one_krone: false })
    const { floor, ceiling } = target.bounds_kroner
    expect(target.achieved_kroner).toBe(ceiling)
    const kroner = (value: number) => value.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, " ")
    const reason = `the caps bound the total to [${kroner(floor)}, ${kroner(ceiling)}] kr`
    expect(target.unreachable_reason).toBe(reason)
    expect(printed.stderr).toBe(`kasko tariff impact: the target of +8 % is unreachable: ${reason}\n`)
    const text = await runCli(command)
    expect(text).toMatchObject({ exitCode: 1, stderr: printed.stderr })
    expect(text.stdout).toContain(`\nTarget +8.0000 % on the capped premium: unreachable: ${reason}\n`)
    const csv = await runCli([...command, "--csv"])
    expect(csv.exitCode).toBe(1)
    expect(csv.stdout).toContain(`"unreachable: ${reason}; nearest it, factor ${target.factor} on the capped premium;`)
  })

  it.each([
    [["--portfolio"], "Not enough arguments following: portfolio"],
    [[], "name the portfolio: --portfolio <file.csv>, or --from-store"],
    [
      ["--portfolio", "book.csv", "--cap-increase", "lots"],
      '--cap-increase takes a per cent like 15% or +3%, not "lots"'
    ],
    [
      ["--portfolio", "book.csv", "--factor-on", "kasko"],
      "--factor-on says what --target's factor is on: give --target too"
    ],
    [["--portfolio", "book.csv", "--date", "2027-02-30"], '--date takes YYYY-MM-DD, not "2027-02-30"'],
    [["--portfolio", "no-such-book.csv"], "cannot read the portfolio no-such-book.csv"]
  ])("refuses %j with the usage (exit 2)", async (options, message) => {
    await written
    const args = options.map((option) => (option === "book.csv" ? book : option))
    const result = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, ...args])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(message)
  })

  it("fails naming the line of a malformed portfolio (exit 1), and lists rejected cases by reason", async () => {
    const broken = directory.newFile("broken.csv")
    writeFileSync(
      broken,
      "policy_id,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price\nA,person,personbil,person,organization,privat_person_koersel,250000\nB,person\n"
    )
    const result = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", broken])
    expect(result).toMatchObject({ exitCode: 1, stdout: "" })
    expect(result.stderr).toBe(`kasko tariff impact: the portfolio ${broken}, line 3: has 2 fields, the header 7\n`)
    const rejecting = directory.newFile("rejecting.csv")
    writeFileSync(
      rejecting,
      "policy_id,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price\nA,person,personbil,person,organization,privat_person_koersel,250000\nB,person,lastbil,person,organization,privat_person_koersel,250000\n"
    )
    const rejected = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", rejecting])
    expect(rejected.exitCode).toBe(0)
    expect(rejected.stdout).toContain(
      "Rejected: 1 case, by reason:\n  vehicle_type: must be one of: personbil, varevogn — 1 case, line 3\n"
    )
  })

  it("refuses a directory holding a JSON file that is not a tariff in one line: the file and its first problem (exit 1)", async () => {
    await written
    // the example's expected summary: 56 KB of another document's JSON beside a tariff
    const proposal = directory.newFile("proposal")
    mkdirSync(proposal)
    copyFileSync(REBALANCE, join(proposal, "insurance-car-leasing-v2.json"))
    const summary = join(proposal, "summary.json")
    copyFileSync(join(dirname(REBALANCE), "expected-summary.json"), summary)
    const result = await runCli(["tariff", "impact", SHIPPED, proposal, "--portfolio", book])
    expect(result).toMatchObject({ exitCode: 1, stdout: "" })
    expect(result.stderr).toBe(
      `kasko tariff impact: NEW ${summary} is not a tariff kasko can load: Unexpected key with value "2027-01-01" at pricing_date (kasko tariff check lists every problem)\n`
    )
    // a first problem whose value is the whole file is cut short
    const tariff = JSON.parse(readFileSync(LEASING_V1, "utf8")) as { rules: Array<unknown> }
    writeFileSync(summary, JSON.stringify({ ...tariff, rules: [readFileSync(summary, "utf8"), ...tariff.rules] }))
    const long = await runCli(["tariff", "impact", SHIPPED, proposal, "--portfolio", book])
    expect(long.exitCode).toBe(1)
    expect(long.stderr).toMatch(
      /^kasko tariff impact: NEW \S+summary\.json is not a tariff kasko can load: Expected .*… at rules\[0\] /
    )
    expect(long.stderr.length).toBeLessThan(400)
  })

  it("refuses --top over 1000 as a usage error naming --top", async () => {
    const result = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", "any.csv", "--top", "1001"])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain("--top takes at most 1000 movers each way, not 1001")
  })

  it("refuses a portfolio whose lines end in CR only (exit 1), naming line 1", async () => {
    const crOnly = directory.newFile("cr-only.csv")
    writeFileSync(
      crOnly,
      "policy_id,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price\rA,person,personbil,person,organization,privat_person_koersel,250000\r"
    )
    const result = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", crOnly])
    expect(result).toMatchObject({ exitCode: 1, stdout: "" })
    expect(result.stderr).toBe(
      `kasko tariff impact: the portfolio ${crOnly}, line 1: lines end in CR only; save the file with LF or CRLF line endings\n`
    )
    const longHeader = directory.newFile("long-header.csv")
    writeFileSync(longHeader, "policy_id,".repeat(10_000))
    const long = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", longHeader])
    expect(long).toMatchObject({ exitCode: 1, stdout: "" })
    expect(long.stderr).toContain("line 1: the header line runs over 64 KiB")
    const strayQuote = directory.newFile("stray-quote.csv")
    writeFileSync(
      strayQuote,
      `policy_id,policy_holder,vehicle_type,vehicle_user,vehicle_owner,vehicle_usage,vehicle_price\n"A,person,personbil,person,organization,privat_person_koersel,250000\n${"B,person,personbil,person,organization,privat_person_koersel,250000\n".repeat(20_000)}`
    )
    const stray = await runCli(["tariff", "impact", LEASING_V1, REBALANCE, "--portfolio", strayQuote])
    expect(stray).toMatchObject({ exitCode: 1, stdout: "" })
    expect(stray.stderr).toBe(
      `kasko tariff impact: the portfolio ${strayQuote}, line 2: a quoted field opens here and is not closed within 1 MiB: a stray quote?\n`
    )
  })

  it("re-rates the quotes in the store with --from-store, their current premiums beside, no party read", async () => {
    const dataDirectory = directory.newFile("store")
    const fixtures = await makeFixtures()
    const quotes = Array.from({ length: 12 }, (_, index) => variantOf(fixtures[index % fixtures.length]!, index))
    await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* QuoteStore.QuoteStore
        for (const quote of quotes) yield* store.insert(quote)
        yield* store.markActivated(quotes[0]!.partner_id, quotes[0]!.quote_id, quotes[0]!.created_at + 1_000)
      }).pipe(Effect.provide(SqliteStores.layer({ filename: join(dataDirectory, "kasko.db") })), Effect.scoped)
    )
    const result = await kasko(
      { KASKO_DATA_DIR: dataDirectory },
      "tariff",
      "impact",
      SHIPPED,
      SHIPPED,
      "--from-store",
      "--date",
      "2026-03-02",
      "--json"
    )
    expect(result.exitCode).toBe(0)
    const printed = JSON.parse(result.stdout)
    expect(printed.report.totals).toMatchObject({ policies: 12, affected: 0 })
    // the quotes were priced with the shipped tariffs on 2026-03-02: re-rating them there gives what they were quoted
    expect(printed.report.current).toMatchObject({ policies: 12, differing: 0 })
    expect(printed.report.current.current_kroner).toBe(printed.report.totals.old_kroner)
    expect(result.stdout).not.toMatch(/Ærtebølle|cpr_number|parties/)
    const moved = await kasko({ KASKO_DATA_DIR: dataDirectory }, "tariff", "impact", SHIPPED, REBALANCE, "--from-store")
    expect(moved.stdout).toMatch(/policies priced .*: \d+ affected/)
    // a target's passes each price the quotes the first listed (StorePortfolio.test.ts: quotes created meanwhile)
    const targeted = await kasko(
      { KASKO_DATA_DIR: dataDirectory },
      ...["tariff", "impact", SHIPPED, REBALANCE, "--from-store", "--target", "+2%", "--factor-on", "kasko", "--json"]
    )
    expect(targeted.exitCode).toBe(0)
    const solved = JSON.parse(targeted.stdout)
    // the new side names only leasing: the standalone quotes are counted apart
    expect(solved.report.totals.policies + (solved.report.not_compared[0]?.cases ?? 0)).toBe(12)
    expect(solved.target).toMatchObject({ reachable: true, within_one_krone: true })
    expect(solved.target.passes).toBeGreaterThan(0)
  })
})
