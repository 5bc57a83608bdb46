/** `kasko serve`: the HTTP service, until SIGTERM or SIGINT. Definition only; `ServeAction.ts` starts it. */
import type { KaskoCommand } from "./KaskoCommand.js"
import { CONFIG_HELP } from "./ConfigHelp.js"

export const SERVE_COMMAND: KaskoCommand = {
  command: "serve",
  describe: "serve the Partner Car Insurance API (SQLite in KASKO_DATA_DIR, or PostgreSQL at KASKO_DATABASE_URL)",
  // the variables table keeps its own columns: not rewrapped
  options: (argv) =>
    argv
      .option("products", {
        type: "string",
        requiresArg: true,
        describe:
          "a directory of product folders sold beside the shipped products (as KASKO_PRODUCTS_DIR; kasko products check DIR checks it)"
      })
      .wrap(null)
      .epilogue(`Configuration comes from the environment, checked at start:\n\n${CONFIG_HELP}`),
  run: async (argv) =>
    (await import("./ServeAction.js")).serve(
      typeof argv["products"] === "string" ? { ...process.env, KASKO_PRODUCTS_DIR: argv["products"] } : process.env
    )
}
