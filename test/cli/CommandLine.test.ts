/**
 * The conventions every `kasko` command keeps: `--help` on each command and
 * subcommand (found by walking the help itself), exit code 2 with the usage
 * for a wrong command line, a completion script, and the installed command —
 * the bundle `pnpm install` builds — answering as the library does.
 */
import { Authentication } from "@kasko/core"
import { runCli } from "@kasko/server"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { temporaryDirectory } from "../support.js"

const ROOT = join(import.meta.dirname, "..", "..")
const BIN = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const SERVER_VERSION = (
  JSON.parse(readFileSync(join(ROOT, "packages", "server", "package.json"), "utf8")) as { version: string }
).version

/** The commands a help text lists under "Commands:", as word paths. */
const listedCommands = (help: string): Array<Array<string>> =>
  [...help.matchAll(/^ {2}kasko ((?:[a-z-]+ )*[a-z-]+)(?: <[a-z]+>)*\s{2,}/gm)].map((match) => match[1]!.split(" "))

/** Every command path, found from `kasko --help` down. */
const allCommands = async (): Promise<Array<Array<string>>> => {
  const found: Array<Array<string>> = []
  const visit = async (path: Array<string>) => {
    const help = await runCli([...path, "--help"])
    expect(help, `kasko ${path.join(" ")} --help`).toMatchObject({ exitCode: 0, stderr: "" })
    for (const command of listedCommands(help.stdout).filter((words) => words.length === path.length + 1)) {
      found.push(command)
      await visit(command)
    }
  }
  await visit([])
  return found
}

describe("the kasko command line", () => {
  it("answers --help on every command and subcommand, with its own usage line", async () => {
    const commands = await allCommands()
    expect(commands.map((words) => words.join(" "))).toEqual(
      expect.arrayContaining([
        "serve",
        "offer",
        "partners add",
        "partners list",
        "partners suspend",
        "keys add",
        "keys revoke",
        "tokens issue",
        "backup",
        "restore",
        "mcp",
        "products check",
        "price",
        "price-grid",
        "tariff diff",
        "tariff check",
        "workbench",
        "completion"
      ])
    )
    for (const words of commands.filter((command) => command[0] !== "completion")) {
      const help = await runCli([...words, "--help"])
      expect(help.stdout.split("\n")[0], words.join(" ")).toMatch(new RegExp(`^kasko ${words.join(" ")}\\b`))
      expect(help.stdout).toContain("--help")
    }
  })

  it("exits 2 with the usage for a command line it does not understand, and prints nothing on standard output", async () => {
    for (const args of [
      [],
      ["fly"],
      ["partners"],
      ["partners", "add", "--id"],
      ["tariff", "check"],
      ["products", "check"],
      ["offer", "--explain=maybe", "--colour"]
    ]) {
      const result = await runCli(args)
      expect(result, JSON.stringify(args)).toMatchObject({ exitCode: 2, stdout: "" })
      expect(result.stderr, JSON.stringify(args)).toMatch(/^kasko[^\n]*: .+\n\nkasko/)
    }
  })

  it("lists, in tokens issue --help, exactly the scopes the service knows", async () => {
    const help = (await runCli(["tokens", "issue", "--help"])).stdout.replace(/\s+/g, " ")
    expect(help).toContain(`--scopes space-separated scopes: ${Authentication.SCOPES.join(" ")} [string]`)
  })

  it("prints a completion script that completes the commands", async () => {
    const script = await runCli(["completion"])
    expect(script.exitCode).toBe(0)
    expect(script.stdout).toContain("_kasko_yargs_completions")
    const completions = await runCli(["--get-yargs-completions", "kasko", "part"])
    expect(completions.stdout.split("\n")).toContain("partners")
  })

  it("runs as the installed command: the bundle built at install, exit codes and all", () => {
    const data = temporaryDirectory("kasko-bin-")
    try {
      const run = (...args: Array<string>) =>
        spawnSync(process.execPath, [BIN, ...args], {
          encoding: "utf8",
          env: { ...process.env, KASKO_DATA_DIR: data.path }
        })
      expect(run("--help")).toMatchObject({ status: 0, stdout: expect.stringContaining("kasko partners") })
      // the version of the server package, as a release sets it
      expect(run("--version")).toMatchObject({ status: 0, stdout: `${SERVER_VERSION}\n` })
      const added = run("partners", "add", "--id", "bilhuset", "--name", "Bilhuset Øst A/S")
      expect(added.status, added.stderr).toBe(0)
      expect(added.stdout).toMatch(/^ksk_[0-9a-f]{12}_\S+\n$/)
      expect(run("partners", "add", "--id", "bilhuset", "--name", "again")).toMatchObject({
        status: 1,
        stderr: expect.stringContaining("already exists")
      })
      expect(run("partners", "fly")).toMatchObject({
        status: 2,
        stderr: expect.stringContaining("Unknown argument: fly")
      })
      expect(run("offer")).toMatchObject({ status: 0, stdout: expect.stringContaining("kr a year") })
    } finally {
      data.remove()
    }
  })
})
