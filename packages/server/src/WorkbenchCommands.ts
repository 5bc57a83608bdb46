/**
 * The actuary's commands: `kasko price`, `kasko price-grid`,
 * `kasko tariff diff|check` and `kasko workbench` (the workbench in the
 * browser). Definitions only; `WorkbenchActions.ts` and
 * `WorkbenchServeAction.ts` do the work.
 */
import type { Argv } from "yargs"
import type { KaskoCommand } from "./KaskoCommand.js"
import { runWithWorkbench } from "./OptionalWorkbench.js"

const actions = () => import("./WorkbenchActions.js")

/** The options that name one case: product, feature, parameters, pricing date and the tariffs. */
const caseOptions = (argv: Argv) =>
  argv
    .option("product", {
      type: "string",
      demandOption: true,
      requiresArg: true,
      describe: "the product's name, like insurance-car-leasing"
    })
    .option("feature", { type: "string", demandOption: true, requiresArg: true, describe: "standard or premium" })
    .option("param", {
      type: "string",
      array: true,
      requiresArg: true,
      describe: "a parameter as <name>=<value>; repeat for each"
    })
    .option("date", { type: "string", requiresArg: true, describe: "the pricing date, YYYY-MM-DD (default today)" })
    .option("tariff", {
      type: "string",
      array: true,
      requiresArg: true,
      describe:
        "a tariff file replacing the shipped tariffs; repeat for several versions (the one in force on --date prices)"
    })

const asJson = (argv: Argv) =>
  argv.option("json", { type: "boolean", default: false, describe: "print JSON instead of text" })

export const WORKBENCH_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "price",
    describe: "price one case and print its rating worksheet",
    options: (argv) =>
      asJson(caseOptions(argv)).option("engine", {
        choices: ["compiled", "json-rules-engine"] as const,
        default: "compiled",
        describe: "the engine that prices: the compiled tariff, or json-rules-engine (the reference interpreter)"
      }),
    run: (argv) => runWithWorkbench("price", actions, (module) => module.priceOneCase(argv))
  },
  {
    command: "price-grid",
    describe: "price a grid over two parameters; writes <out>.csv and <out>.svg (a heat map of the annual premium)",
    options: (argv) =>
      asJson(caseOptions(argv))
        .option("x", {
          type: "string",
          demandOption: true,
          requiresArg: true,
          describe: "the x axis: <parameter>=<from>:<to>:<step>"
        })
        .option("y", {
          type: "string",
          demandOption: true,
          requiresArg: true,
          describe: "the y axis: <parameter>=<value>,<value>,…"
        })
        .option("out", {
          type: "string",
          demandOption: true,
          requiresArg: true,
          describe: "where to write: <out>.csv and <out>.svg"
        })
        .epilogue(`Example, writing grid.csv and grid.svg:
  kasko price-grid --product insurance-car-leasing --feature standard \\
    --param policy_holder=person --param vehicle_user=person --param vehicle_owner=organization \\
    --param vehicle_type=personbil --param vehicle_usage=privat_person_koersel \\
    --x vehicle_price=100000:500000:100000 --y youngest_user_age=20,30,50 --out grid`),
    run: (argv) => runWithWorkbench("price-grid", actions, (module) => module.priceGrid(argv))
  },
  {
    command: "tariff",
    describe: "compare two tariff versions on a set of cases, or check a tariff",
    subcommands: [
      {
        command: "diff <old> <new>",
        describe: "re-price the cases under both versions and report each changed premium in kroner and per cent",
        options: (argv) =>
          asJson(argv)
            .positional("old", { type: "string", describe: "the tariff in force (JSON)" })
            .positional("new", { type: "string", describe: "the proposed tariff (JSON)" })
            .option("cases", {
              type: "string",
              demandOption: true,
              requiresArg: true,
              describe: "a golden table (CSV, see examples/actuary-workbench); expected columns may be empty"
            }),
        run: (argv) => runWithWorkbench("tariff diff", actions, (module) => module.diffTariffs(argv))
      },
      {
        command: "check <tariff>",
        describe:
          "decode a tariff and report unreachable rules, coverages with no premium and undefined parameters; exits 1 on errors",
        options: (argv) => asJson(argv).positional("tariff", { type: "string", describe: "the tariff file (JSON)" }),
        run: (argv) => runWithWorkbench("tariff check", actions, (module) => module.checkTariff(argv))
      }
    ]
  },
  {
    command: "workbench",
    describe:
      "serve the actuary's workbench in the browser (http://127.0.0.1:8090/, pricing in the page, works offline)",
    options: (argv) =>
      argv
        .option("tariffs", {
          type: "string",
          requiresArg: true,
          describe:
            "the tariff directory, <product>/<version>.json (default: the shipped tariffs); saving from the page writes new versions there"
        })
        .option("proposals", {
          type: "string",
          array: true,
          requiresArg: true,
          describe:
            "proposed tariff versions to compare and check, read only and never in force (JSON files or directories of them; default with the shipped tariffs: examples/actuary-workbench/tariffs, when there; --no-proposals for none)"
        })
        .option("golden", {
          type: "string",
          array: true,
          requiresArg: true,
          describe:
            "golden tables to run besides the CSV files in the tariff directory (default with the shipped tariffs: examples/actuary-workbench/golden, when there)"
        })
        .option("host", {
          type: "string",
          default: "127.0.0.1",
          requiresArg: true,
          describe: "address to listen on (127.0.0.1: this machine only)"
        })
        .option("port", {
          type: "number",
          default: 8090,
          requiresArg: true,
          describe: "port to listen on (0 picks a free one)"
        })
        .option("allow-backdated", {
          type: "boolean",
          default: false,
          describe:
            "let the page save a new version whose effective_from is before today (it reprices what was priced since)"
        }),
    run: (argv) =>
      runWithWorkbench(
        "workbench",
        () => import("./WorkbenchServeAction.js"),
        (module) => module.serveWorkbench(argv)
      )
  }
]
