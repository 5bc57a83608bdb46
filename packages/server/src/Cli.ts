/**
 * The `kasko` command line, on yargs: every command and subcommand answers
 * `--help` with generated usage; a wrong command line exits 2 with the
 * command's usage, a command that cannot be done exits 1 with a sentence
 * (`CommandResult`); data is printed for people by default and as JSON with
 * `--json`; `kasko completion` prints a bash/zsh completion script.
 *
 * Command modules hold definitions only; what a command does is imported
 * when it runs, so `kasko help` loads no engine and no database driver.
 */
import yargs, { type Argv } from "yargs"
import { ADMIN_COMMANDS } from "./AdminCommands.js"
import { BACKUP_COMMANDS } from "./BackupCommands.js"
import { DOCUMENT_COMMANDS } from "./DocumentCommands.js"
import { WEBHOOK_COMMANDS } from "./WebhookCommands.js"
import {
  type CommandResult,
  done,
  EXIT_USAGE,
  failed,
  invalidData,
  isInvalidDataError,
  isUsageError
} from "./CommandResult.js"
import type { KaskoCommand } from "./KaskoCommand.js"
import { MCP_COMMANDS } from "./McpCommands.js"
import { OFFER_COMMAND } from "./OfferCommand.js"
import { PRODUCT_COMMANDS } from "./ProductCommands.js"
import { SERVE_COMMAND } from "./ServeCommand.js"
import { SERVICE_VERSION } from "./ServiceVersion.js"
import { WORKBENCH_COMMANDS } from "./WorkbenchCommands.js"

export const COMMANDS: ReadonlyArray<KaskoCommand> = [
  SERVE_COMMAND,
  OFFER_COMMAND,
  ...ADMIN_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...DOCUMENT_COMMANDS,
  ...BACKUP_COMMANDS,
  ...MCP_COMMANDS,
  ...PRODUCT_COMMANDS,
  ...WORKBENCH_COMMANDS
]

const ROOT_EPILOGUE = `Every command answers --help. The administration commands use the service's database: KASKO_DATABASE_URL
when set, else the SQLite file in KASKO_DATA_DIR (default ./data); see kasko serve --help.`

/** A usage error found by yargs, with the words of the command it belongs to. */
class CommandLineRefused extends Error {}

const wordOf = (command: KaskoCommand) => command.command.split(" ")[0]!

/** The leading words of `args` that name a command and its subcommands. */
const commandPath = (args: ReadonlyArray<string>): Array<string> => {
  const path: Array<string> = []
  let level: ReadonlyArray<KaskoCommand> | undefined = COMMANDS
  for (const arg of args) {
    const found: KaskoCommand | undefined = level?.find((command) => wordOf(command) === arg)
    if (found === undefined) break
    path.push(arg)
    level = found.subcommands
  }
  return path
}

const define = (
  argv: Argv,
  commands: ReadonlyArray<KaskoCommand>,
  path: ReadonlyArray<string>,
  report: (result: CommandResult) => void
): Argv => {
  for (const command of commands) {
    const words = [...path, wordOf(command)]
    argv.command(
      command.command,
      command.describe,
      (inner) => {
        const withOptions = command.options?.(inner) ?? inner
        if (command.subcommands === undefined) return withOptions
        return define(withOptions, command.subcommands, words, report).demandCommand(
          1,
          `name a ${words.join(" ")} command`
        )
      },
      async (parsed) => {
        if (command.run === undefined) return
        try {
          report(await command.run(parsed as Readonly<Record<string, unknown>>))
        } catch (error) {
          const message = (error as Error).message
          report(
            isUsageError(error)
              ? await usageRefusal(words, message)
              : isInvalidDataError(error)
                ? invalidData(words.join(" "), message)
                : failed(words.join(" "), message)
          )
        }
      }
    )
  }
  return argv
}

const program = (report: (result: CommandResult) => void): Argv =>
  define(yargs(), COMMANDS, [], report)
    .scriptName("kasko")
    .usage(
      "kasko <command> [options]\n\nkasko's quoting engine from the command line: serve the API, administer partners, back up, check products, price, check tariffs, print documents."
    )
    .epilogue(ROOT_EPILOGUE)
    .completion("completion", "print a bash or zsh completion script (kasko completion >> ~/.bashrc)")
    .demandCommand(1, "name a command")
    .strict()
    .help()
    .alias("help", "h")
    .version("version", "print the version of kasko", SERVICE_VERSION)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      // a command's own failure never reaches here (each run catches its own); this is yargs refusing the command line
      throw new CommandLineRefused(message ?? error?.message ?? "the command line is not understood")
    })

/**
 * Parses and runs; answers what yargs printed itself (help, completion). Its
 * callback can come more than once (a completion request reports an empty
 * output first), so the last output counts once the parse has settled.
 */
const parse = async (argv: Argv, args: ReadonlyArray<string>): Promise<string> => {
  let printed = ""
  let refusal: unknown
  await argv
    .parseAsync([...args], {}, (error, _parsed, output) => {
      if (error) refusal ??= error
      if (output !== "") printed = output
    })
    .catch((error: unknown) => (refusal ??= error))
  if (refusal !== undefined) throw refusal
  return printed
}

/** The usage of a command, as `--help` prints it. */
const helpOf = (path: ReadonlyArray<string>): Promise<string> =>
  parse(
    program(() => {}),
    [...path, "--help"]
  )

const usageRefusal = async (path: ReadonlyArray<string>, message: string): Promise<CommandResult> => ({
  stdout: "",
  stderr: `kasko${path.map((word) => ` ${word}`).join("")}: ${message}\n\n${await helpOf(path)}\n`,
  exitCode: EXIT_USAGE
})

/** Runs the kasko command line (the arguments after the program name); its whole output is in `stdout`. */
export const runCli = async (args: ReadonlyArray<string>): Promise<CommandResult> => {
  const { stdoutChunks, ...result } = await runCommandLine(args)
  if (stdoutChunks === undefined) return result
  const chunks = [result.stdout]
  for await (const chunk of stdoutChunks) chunks.push(chunk)
  return { ...result, stdout: chunks.join("") }
}

/** Runs the kasko command line, a large output left in `stdoutChunks` for the caller to stream (the `kasko` command). */
export const runCommandLine = async (args: ReadonlyArray<string>): Promise<CommandResult> => {
  let result: CommandResult | undefined
  try {
    const printed = await parse(
      program((reported) => (result = reported)),
      args
    )
    return result ?? done(printed === "" ? "" : `${printed}\n`)
  } catch (error) {
    if (error instanceof CommandLineRefused) return usageRefusal(commandPath(args), error.message)
    throw error
  }
}
