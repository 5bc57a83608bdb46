/**
 * `kasko documents …`: writes the documents the service serves to a file — a product variant's information
 * document (IPID), a quote's document for the customer, the privacy policy — as PDF. Definitions only;
 * `DocumentActions.ts` does the work and is imported when a command runs.
 */
import type { Argv } from "yargs"
import type { KaskoCommand } from "./KaskoCommand.js"

const actions = () => import("./DocumentActions.js")

const output = (argv: Argv, example: string) =>
  argv.option("out", {
    type: "string",
    demandOption: true,
    requiresArg: true,
    describe: `the PDF file to write (- for standard output), e.g. ${example}`
  })

/** `--products DIR`: products added as files, whose documents are written as the service would (as KASKO_PRODUCTS_DIR). */
const withProducts = (argv: Argv) =>
  argv.option("products", {
    type: "string",
    requiresArg: true,
    describe: "a directory of product folders sold beside the shipped products (as KASKO_PRODUCTS_DIR)"
  })

export const DOCUMENT_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "documents",
    describe: "write a product's information document (IPID), a quote's document or the privacy policy as PDF",
    subcommands: [
      {
        command: "ipid",
        describe: "a product variant's information document, from the tariff in force today",
        options: (argv) =>
          output(
            withProducts(argv)
              .option("product", {
                type: "string",
                default: "insurance-car-leasing",
                requiresArg: true,
                describe: "the product's name"
              })
              .option("variant", {
                type: "string",
                default: "standard",
                requiresArg: true,
                describe: "standard or extended"
              }),
            "ipid.pdf"
          ).epilogue(
            "Example: kasko documents ipid --product insurance-car-standalone --variant extended --out ipid.pdf"
          ),
        run: async (argv) => (await actions()).writeProductInformation(argv)
      },
      {
        command: "quote",
        describe: "a partner's quote as the customer's document (from the service's database; CPR numbers masked)",
        options: (argv) =>
          output(
            withProducts(argv)
              .option("partner", {
                type: "string",
                demandOption: true,
                requiresArg: true,
                describe: "the partner's id"
              })
              .option("quote", {
                type: "string",
                demandOption: true,
                requiresArg: true,
                describe: "the quote's id (quote_id)"
              }),
            "tilbud.pdf"
          ).epilogue(
            "Example: kasko documents quote --partner bilhuset --quote 0195574f-8e28-7c3a-9b1d-5f2e8a4c6d10 --out tilbud.pdf"
          ),
        run: async (argv) => (await actions()).writeQuoteDocument(argv)
      },
      {
        command: "privacy-policy",
        describe: "the privacy policy kasko serves when the insurer keeps none of its own",
        options: (argv) => output(argv, "privatlivspolitik.pdf"),
        run: async (argv) => (await actions()).writePrivacyPolicy(argv)
      }
    ]
  }
]
