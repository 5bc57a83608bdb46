/**
 * One `kasko` command as the command modules define it and `Cli.ts` assembles
 * them: a module of its own, so that the command modules need not import the
 * command line that imports them.
 */
import type { Argv } from "yargs"
import type { CommandResult } from "./CommandResult.js"

/** One command: its words, what it does, its options, and what runs it — or its subcommands. */
export interface KaskoCommand {
  /** The yargs command string: the word, then positionals (`check <tariff>`). */
  readonly command: string
  readonly describe: string
  readonly options?: (argv: Argv) => Argv
  readonly run?: (argv: Readonly<Record<string, unknown>>) => Promise<CommandResult>
  readonly subcommands?: ReadonlyArray<KaskoCommand>
}
