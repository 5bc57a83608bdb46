/** The `kasko` command: dispatches to its subcommands. */
import { runOfferCommand, type CommandResult } from "./OfferCommand.js"
import { ADMIN_USAGE, runAdminCommand } from "./AdminCommands.js"
import { runServeCommand } from "./ServeCommand.js"

export const USAGE = `usage: kasko <command> [options]

commands:
  serve    serve the HTTP API on the embedded SQLite store (kasko serve --help)
  offer    price an anonymous offer through the core (kasko offer --help)
  partners, keys, tokens   administer partners and their credentials:

${ADMIN_USAGE}

  price, price-grid, tariff   the actuary's workbench (kasko price --help)
  workbench                   the actuary's workbench in the browser (kasko workbench --help)`

const today = () => new Date().toISOString().slice(0, 10)

/** Runs the kasko command line (arguments after the program name). */
export const runCli = async (args: ReadonlyArray<string>): Promise<CommandResult> => {
  const [command = "help", ...rest] = args
  switch (command) {
    case "serve":
      return runServeCommand(rest)
    // the workbench (charts, CSV) loads only for its own commands, never into the service
    case "price":
    case "price-grid":
      return (await import("./WorkbenchCommands.js")).runWorkbenchCommand(command, rest, today())
    case "tariff": {
      const [action = "", ...tariffArgs] = rest
      return (await import("./WorkbenchCommands.js")).runWorkbenchCommand(`tariff ${action}`, tariffArgs, today())
    }
    case "workbench":
      return (await import("./WorkbenchServeCommand.js")).runWorkbenchServeCommand(rest)
    case "partners":
    case "keys":
    case "tokens":
      return runAdminCommand(command, rest)
    case "offer":
      return runOfferCommand(rest)
    case "help":
    case "--help":
      return { stdout: `${USAGE}\n`, stderr: "", exitCode: 0 }
    default:
      return { stdout: "", stderr: `kasko: unknown command "${command}"\n${USAGE}\n`, exitCode: 2 }
  }
}
