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
/**
 * The impact commands, bundled with the workbench's impact code (packages/server/scripts/bundle-cli.mjs): the
 * workbench is resolved first, so an install without it hears what to install, as the other actuary's commands do.
 */
const impactActions = () => {
  import.meta.resolve("@kasko/workbench")
  return import("./ImpactActions.js")
}

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
    .option(...PRODUCTS_OPTION)

/** `--products DIR`: products added as files, priced beside the shipped ones (as KASKO_PRODUCTS_DIR). */
const PRODUCTS_OPTION = [
  "products",
  {
    type: "string",
    requiresArg: true,
    describe:
      "a directory of product folders priced beside the shipped products (as KASKO_PRODUCTS_DIR; kasko products check DIR checks it)"
  }
] as const

// @kasko/workbench's PORTFOLIO_DISTRIBUTIONS and ADDED_PRODUCT_DISTRIBUTIONS (the help cannot load the optional
// package; a test keeps them equal)
const PORTFOLIO_HELP = `Distributions (each policy drawn independently):
  product         insurance-car-leasing 65 %, insurance-car-standalone 35 %
  feature         standard 62 %, premium 38 %
  payments        12 a year 70 %, 1 a year 30 %
  policy holder   person 70 %, organization 30 %
  vehicle user    holder a person: person 97 %; holder an organization: person 55 % (company cars), organization 45 %
  vehicle owner   organization (the partner owns the vehicle)
  vehicle type    holder a person: personbil 94 %, varevogn 6 %; an organization: personbil 60 %, varevogn 40 %
  usage           personbil of a person for a person: privat_person_koersel 96 %, godstransport_privat/erhverv 4 %;
                  other personbiler: privat 60 %, erhverv 15 %, privat/erhverv 15 %, halv omsætning 5 %, godstransport 5 %;
                  varevogne: godstransport 35 %, erhverv 25 %, halv omsætning 15 %, privat/erhverv 15 %, privat 10 %
  vehicle price   personbil: 80–150k 15 %, 150–250k 30 %, 250–350k 25 %, 350–500k 18 %, 500–800k 9 %, 0.8–1.5M 3 %;
                  varevogn: 120–200k 25 %, 200–300k 40 %, 300–450k 28 %, 450–700k 7 % (uniform within, whole 1 000 kr)
  youngest driver user a person: age 65 %, birth date 20 %, not given 15 %; an organization: age 30 %, not given 70 %
  driver's age    18–20 3 %, 21–24 7 %, 25–27 7 %, 28–34 15 %, 35–49 33 %, 50–64 25 %, 65–85 10 % (on --as-of)
  weight          1 for 85 %; otherwise the part of the year written, 0.05–0.95

Products named with --product (the shipped products as they ship keep the distributions above;
any other product — one added with --products DIR — is drawn from its document):
  product         each policy one of the products named, each as likely
  feature         the product's features, each as likely
  enum            its options, each as likely (a party role's parameter quoted only as one kind: that kind)
  number          [minimum, maximum] cut where the minimum doubles (1 000–1 999, 2 000–3 999, …), the parts
                  weighted 1, 2, 3, … from either end (1 000–150 000: 5, 10, 15, 20, 20, 15, 10, 5 %), then
                  a whole number each as likely within the part
  age             a number a birth date stands for (age_of): the driver's age bands above within its range
  age or birth    both optional: the age 65 %, the birth date 20 %, neither 15 %; a required one always
  date            any other: a day of the ten years before --as-of's year
  optional        any other optional parameter: given 75 %, blank 25 %
  weight          as above

Example, a book of the van product of examples/products:
  kasko portfolio generate --products examples/products --product insurance-van-business \\
    --size 10000 --seed 1 --as-of 2027-01-01 --out van-book.csv`

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
            })
            .option(...PRODUCTS_OPTION),
        run: (argv) => runWithWorkbench("tariff diff", actions, (module) => module.diffTariffs(argv))
      },
      {
        command: "impact <old> <new>",
        describe:
          "re-rate a portfolio under both versions on every core: policies affected, premium before and after in total and per segment, the change per policy in bands of per cent, the largest movers; caps, and the factor that hits a target",
        options: (argv) =>
          asJson(argv)
            .positional("old", {
              type: "string",
              describe: "the tariff in force: a tariff file, or a directory of them (<product>/<version>.json)"
            })
            .positional("new", { type: "string", describe: "the proposed tariff: a file or a directory, as OLD" })
            .option("portfolio", {
              type: "string",
              requiresArg: true,
              describe:
                "the book as CSV: a header naming the product parameters (of --products DIR's products too) and optionally policy_id, product_name, feature, weight (or exposure) and current_premium; one policy a line (kasko portfolio generate makes one)"
            })
            .option("from-store", {
              type: "boolean",
              describe:
                "the book is the quotes in the store (KASKO_DATABASE_URL, else the SQLite file in KASKO_DATA_DIR), awaiting and activated; their parties are never read. A target's re-pricings price the quotes the first pass listed: quotes purged or created among them meanwhile fail the test"
            })
            .option("date", {
              type: "string",
              requiresArg: true,
              describe: "the date both versions price on, YYYY-MM-DD (default: NEW's effective_from)"
            })
            .option("cap-increase", {
              type: "string",
              requiresArg: true,
              describe: "hold each policy's increase to this, like 15%: capped totals are reported beside the uncapped"
            })
            .option("cap-decrease", {
              type: "string",
              requiresArg: true,
              describe: "hold each decrease to this, like 10%"
            })
            .option("target", {
              type: "string",
              requiresArg: true,
              describe:
                "solve for the uniform factor that makes the overall change this, like +3% (on the capped total when capped); a target out of reach — beyond the caps' bounds, say — is reported with the factor nearest it, and exits 1"
            })
            .option("factor-on", {
              type: "string",
              requiresArg: true,
              describe:
                "what --target's factor multiplies: premium (the whole premium, default; solved exactly) or a coverage's rates, like kasko (solved by re-pricing)"
            })
            .option("bands", {
              type: "string",
              requiresArg: true,
              describe: "the edges of the bands of change per policy, in per cent (default -20,-10,-5,-2,0,2,5,10,20)"
            })
            .option("top", {
              type: "number",
              requiresArg: true,
              describe: "how many movers to list each way (default 10, at most 1000)"
            })
            .option("workers", {
              type: "number",
              requiresArg: true,
              describe: "worker threads pricing the book (default: one per core)"
            })
            .option("csv", {
              type: "boolean",
              default: false,
              describe: "print CSV (one table, a section column) instead of text"
            })
            .option(...PRODUCTS_OPTION)
            .epilogue(`A policy's premium is its annual premium with the charges (the worksheet's annual total), weighted by its
weight; a current_premium column is reconciled with OLD's price, not used in its place; a case that fails
validation is counted and listed by reason, never dropped. With --products DIR the book may hold the
products of DIR too: their tariffs are decoded against them, and the report is broken down by their own
parameters besides. Examples:
  kasko portfolio generate --size 100000 --seed 1 --as-of 2027-01-01 --out book.csv
  kasko tariff impact packages/core/tariffs examples/actuary-workbench/impact \\
    --portfolio book.csv --cap-increase 10% --target +3% --factor-on kasko
  kasko portfolio generate --products examples/products --product insurance-van-business \\
    --size 10000 --seed 1 --as-of 2027-01-01 --out van-book.csv
  kasko tariff impact examples/products/insurance-van-business/tariffs/v1.json \\
    examples/products/insurance-van-business-v2.proposal.json --portfolio van-book.csv --products examples/products`),
        run: (argv) => runWithWorkbench("tariff impact", impactActions, (module) => module.tariffImpact(argv))
      },
      {
        command: "check <tariff>",
        describe:
          "decode a tariff and report unreachable rules, coverages with no premium and undefined parameters; exits 1 on errors",
        options: (argv) =>
          asJson(argv)
            .positional("tariff", { type: "string", describe: "the tariff file (JSON)" })
            .option(...PRODUCTS_OPTION),
        run: (argv) => runWithWorkbench("tariff check", actions, (module) => module.checkTariff(argv))
      }
    ]
  },
  {
    command: "portfolio",
    describe: "make portfolios for impact tests",
    subcommands: [
      {
        command: "generate",
        describe: "write a seeded, realistic book of policies as CSV (the same seed, the same book, on any machine)",
        options: (argv) =>
          asJson(argv)
            .option("size", { type: "number", demandOption: true, requiresArg: true, describe: "how many policies" })
            .option("seed", { type: "number", demandOption: true, requiresArg: true, describe: "any whole number" })
            .option("as-of", {
              type: "string",
              requiresArg: true,
              describe:
                "the date the drivers' ages hold on, YYYY-MM-DD (default 2027-01-01, fixed so that a seed gives one book on any day): use the impact's pricing date"
            })
            .option("out", {
              type: "string",
              requiresArg: true,
              describe: "the CSV file to write (default: standard output)"
            })
            .option("product", {
              type: "string",
              array: true,
              requiresArg: true,
              describe:
                "the book's products, repeated or separated by commas (default: the seed products, as below); its columns are their parameters"
            })
            .option(...PRODUCTS_OPTION)
            .epilogue(PORTFOLIO_HELP),
        run: (argv) => runWithWorkbench("portfolio generate", impactActions, (module) => module.generatePortfolio(argv))
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
        .option("products", {
          type: "string",
          requiresArg: true,
          describe:
            "a directory of product folders priced beside the shipped products and edited in the page, which saves their new versions there (as KASKO_PRODUCTS_DIR; checked as kasko serve checks it)"
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
