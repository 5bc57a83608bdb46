/**
 * `kasko products check DIR`: a product folder (`<product>/product.json`, more versions of it as
 * `<product>/versions/<version>.json`, and `<product>/tariffs/<version>.json`),
 * or a folder of them, checked before anything loads it. Definition only; `ProductActions.ts` does the work.
 */
import type { KaskoCommand } from "./KaskoCommand.js"

const actions = () => import("./ProductActions.js")

export const PRODUCT_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "products",
    describe: "check product folders: a product's document and its tariff versions",
    subcommands: [
      {
        command: "check <dir>",
        describe:
          "check a product folder, or every product folder in a folder: every error and warning at once, each with its file and JSON path; exits 2 on an error",
        options: (argv) =>
          argv
            .positional("dir", {
              type: "string",
              describe: "a product folder (holding product.json), or a folder of them"
            })
            .option("json", { type: "boolean", default: false, describe: "print the findings as JSON" })
            .epilogue(`A product folder is named after its product and holds:
  product.json              the product document (packages/core/products/product.schema.json)
  versions/<version>.json   more versions of it, each in force from its effective_from
  tariffs/<version>.json    its tariff versions, as packages/core/tariffs/<product>/v1.json
Errors keep a folder from loading: JSON that does not parse, what the document's schema refuses (an unknown
member too), a folder not named after its product, a tariff that does not decode or prices another product,
names given twice, a rule, role or vehicle code naming a parameter the product lacks, an option without a
vehicle code, a variant's when out of place, an enum without options, a number without its range, a default
that is not an option, no tariff. Warnings load but look like mistakes: a feature naming an unknown parameter,
an option no tariff rule names, a variant no case falls into, a coverage the document does not describe, a
party role without its parameter, a JSON file the folder's layout does not read.
Exit codes: 0 no error (warnings alone too), 2 an error or a folder that cannot be read. Example:
  kasko products check products/`),
        run: async (argv) => (await actions()).checkProducts(argv)
      }
    ]
  }
]
