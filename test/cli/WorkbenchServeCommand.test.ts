/**
 * `kasko workbench` as a process: prints its URL, serves the page and the
 * workspace on 127.0.0.1 (the shipped tariffs, the example's proposal and the
 * repository's golden table by default, or the directory given; the product
 * folders of `--products DIR` or KASKO_PRODUCTS_DIR, refused as `kasko serve`
 * refuses them), and exits 0 on SIGINT/SIGTERM.
 */
import { runCli } from "@kasko/server"
import { spawn, type ChildProcess } from "node:child_process"
import { cpSync } from "node:fs"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const MAIN = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const directory = temporaryDirectory("kasko-workbench-command-")
afterAll(() => directory.remove())

const workbench = (args: ReadonlyArray<string>, environment: Readonly<Record<string, string>> = {}) =>
  spawn(process.execPath, [MAIN, "workbench", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...environment }
  })

const EXAMPLE_PRODUCTS = join(ROOT, "examples", "products")

interface ServedWorkspace {
  readonly tariffs: Array<{ file: string }>
  readonly golden_tables: Array<{ file: string }>
  readonly products?: { directory: string; folders: Array<{ folder: string; files: Array<{ file: string }> }> }
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))

/** The URL the command prints on its first line. */
const urlOf = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`kasko workbench exited ${code} before printing its URL`)))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /^kasko workbench: (http:\/\/[^/ ]+)\/ /.exec(line)
      if (match) resolve(match[1]!)
    })
  })

describe("kasko workbench", () => {
  it("serves the shipped tariffs, the example's proposal and the repository's golden table on 127.0.0.1 until SIGINT", async () => {
    const child = workbench(["--port", "0"])
    const url = await urlOf(child)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const page = await fetch(`${url}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script type="module" src="/app.js">')
    const workspace = (await (await fetch(`${url}/api/workspace`)).json()) as {
      tariffs: Array<{ file: string; proposal?: true }>
      golden_tables: Array<{ file: string }>
    }
    // the proposal is what gives Compare versions a change as the README starts it
    expect(workspace.tariffs.map(({ file, proposal }) => [file, proposal ?? false])).toEqual([
      ["insurance-car-leasing/v1.json", false],
      ["insurance-car-standalone/v1.json", false],
      ["insurance-car-leasing-v2-proposal.json", true]
    ])
    expect(workspace.golden_tables.map((table) => table.file)).toEqual(["reference-tariff-v1.csv"])
    const exited = exitOf(child)
    child.kill("SIGINT")
    expect(await exited).toBe(0)
  }, 60_000)

  it("starts without the proposal after --no-proposals", async () => {
    const child = workbench(["--port", "0", "--no-proposals"])
    const url = await urlOf(child)
    const workspace = (await (await fetch(`${url}/api/workspace`)).json()) as { tariffs: Array<{ file: string }> }
    expect(workspace.tariffs.map((file) => file.file)).toEqual([
      "insurance-car-leasing/v1.json",
      "insurance-car-standalone/v1.json"
    ])
    const exited = exitOf(child)
    child.kill("SIGINT")
    expect(await exited).toBe(0)
  }, 60_000)

  it("serves the tariff directory given, and stops on SIGTERM", async () => {
    const tariffs = join(directory.path, "tariffs")
    cpSync(join(ROOT, "examples", "actuary-workbench", "tariffs"), tariffs, { recursive: true })
    const child = workbench(["--tariffs", tariffs, "--host", "127.0.0.1", "--port", "0"])
    const url = await urlOf(child)
    const workspace = (await (await fetch(`${url}/api/workspace`)).json()) as {
      tariff_directory: string
      tariffs: Array<{ file: string }>
      golden_tables: Array<unknown>
    }
    expect(workspace.tariff_directory).toBe(tariffs)
    expect(workspace.tariffs.map((file) => file.file)).toEqual(["insurance-car-leasing-v2-proposal.json"])
    expect(workspace.golden_tables).toEqual([])
    const exited = exitOf(child)
    child.kill("SIGTERM")
    expect(await exited).toBe(0)
  }, 60_000)

  it("serves the product folders of --products beside the shipped tariffs, with the golden tables beside them", async () => {
    const child = workbench(["--port", "0", "--products", "examples/products"])
    const url = await urlOf(child)
    const workspace = (await (await fetch(`${url}/api/workspace`)).json()) as ServedWorkspace
    expect(workspace.products?.directory).toBe(EXAMPLE_PRODUCTS)
    expect(workspace.products?.folders.map(({ folder, files }) => [folder, files.map((file) => file.file)])).toEqual([
      ["insurance-van-business", ["product.json", "tariffs/v1.json"]]
    ])
    expect(workspace.golden_tables.map((table) => table.file)).toEqual([
      "reference-tariff-v1.csv",
      "insurance-van-business-v1.golden.csv"
    ])
    const exited = exitOf(child)
    child.kill("SIGINT")
    expect(await exited).toBe(0)
  }, 60_000)

  it("reads KASKO_PRODUCTS_DIR, as kasko serve does", async () => {
    const child = workbench(["--port", "0"], { KASKO_PRODUCTS_DIR: EXAMPLE_PRODUCTS })
    const url = await urlOf(child)
    const workspace = (await (await fetch(`${url}/api/workspace`)).json()) as ServedWorkspace
    expect(workspace.products?.folders.map(({ folder }) => folder)).toEqual(["insurance-van-business"])
    const exited = exitOf(child)
    child.kill("SIGTERM")
    expect(await exited).toBe(0)
  }, 60_000)

  it("refuses a products directory with an error as kasko serve does: every error, exit 2", async () => {
    const broken = join(ROOT, "test", "cli", "fixtures", "broken-products", "several-mistakes")
    const result = await runCli(["workbench", "--port", "0", "--products", broken])
    expect(result).toMatchObject({ exitCode: 2, stdout: "" })
    expect(result.stderr).toMatch(/^kasko workbench: .* holds products kasko cannot load \(\d+ errors\)/)
    const errorLines = (text: string) => text.split("\n").filter((line) => line.startsWith("error"))
    const check = await runCli(["products", "check", broken])
    expect(errorLines(result.stderr).length).toBeGreaterThan(1)
    expect(errorLines(result.stderr)).toEqual(errorLines(check.stdout))
    // and one that is not there
    const nowhere = await runCli(["workbench", "--port", "0", "--products", join(directory.path, "no-such-directory")])
    expect(nowhere.exitCode).toBe(2)
    expect(nowhere.stderr).toContain("cannot read")
  })

  it.each([
    [["--port", "70000"], "--port takes 0–65535"],
    [["--tariffs", "/no/such/directory"], "no tariff directory at /no/such/directory"],
    [["--golden", "/no/such/golden.csv"], "no golden table at /no/such/golden.csv"],
    [["--proposals", "/no/such/v2.json"], "no proposal at /no/such/v2.json"],
    [["--colour"], "Unknown argument: colour"]
  ])("refuses %j with exit code 2: %s", async (args, message) => {
    const result = await runCli(["workbench", ...args])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).toContain("\n\nkasko workbench\n")
  })

  it("explains itself with --help, and is listed by kasko help", async () => {
    expect((await runCli(["workbench", "--help"])).stdout).toMatch(/--tariffs\s+the tariff directory/)
    expect((await runCli(["help"])).stdout).toMatch(/kasko workbench\s+serve the actuary's workbench in the browser/)
  })
})
