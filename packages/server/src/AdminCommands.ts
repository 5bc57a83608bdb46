/**
 * `kasko partners …`, `kasko keys …`, `kasko tokens issue`: administering
 * partners and their credentials on the service's database. Definitions only;
 * `AdminActions.ts` does the work and is imported when a command runs.
 */
import type { Argv } from "yargs"
import type { KaskoCommand } from "./KaskoCommand.js"

// the scopes a token may carry, as the service knows them (a test holds this line to core's SCOPES)
const SCOPES_LINE = "products:read offers:create quotes:create quotes:read quotes:activate webhooks:manage"

const actions = () => import("./AdminActions.js")

const asJson = (argv: Argv) =>
  argv.option("json", { type: "boolean", default: false, describe: "print JSON instead of text" })

const partnerId = (argv: Argv, name: string, describe: string) =>
  argv.option(name, { type: "string", demandOption: true, requiresArg: true, describe })

const productsOption = {
  type: "string",
  requiresArg: true,
  describe:
    "the products the partner may sell, comma-separated (the shipped ones and KASKO_PRODUCTS_DIR's); without it, every product"
} as const

export const ADMIN_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "partners",
    describe: "add, list and suspend partners, and set the products they may sell",
    subcommands: [
      {
        command: "add",
        describe: "add a partner with its first subscription key; prints the key (shown once, keep it)",
        options: (argv) =>
          asJson(
            partnerId(argv, "id", "the partner's id: 2–63 lower-case letters, digits and hyphens")
              .option("name", { type: "string", demandOption: true, requiresArg: true, describe: "the partner's name" })
              .option("cvr", { type: "string", requiresArg: true, describe: "the partner's CVR number (8 digits)" })
              .option("products", productsOption)
          ).epilogue('Example: KEY=$(kasko partners add --id bilhuset --name "Bilhuset Øst A/S")'),
        run: async (argv) => (await actions()).addPartner(argv)
      },
      {
        command: "list",
        describe: "list the partners",
        options: asJson,
        run: async (argv) => (await actions()).listPartners(argv)
      },
      {
        command: "set-products",
        describe: "set the products a partner may sell, from its next request on",
        options: (argv) =>
          asJson(
            partnerId(argv, "id", "the partner's id").option("products", productsOption).option("all-products", {
              type: "boolean",
              describe: "let the partner sell every product, those added later too"
            })
          ).epilogue(
            "Example: kasko partners set-products --id bilhuset --products insurance-car-leasing,business-car-insurance-standalone"
          ),
        run: async (argv) => (await actions()).setProducts(argv)
      },
      {
        command: "suspend",
        describe: "suspend a partner: its keys and tokens are refused from the next request on",
        options: (argv) => asJson(partnerId(argv, "id", "the partner's id")),
        run: async (argv) => (await actions()).suspendPartner(argv)
      }
    ]
  },
  {
    command: "keys",
    describe: "add and revoke a partner's subscription keys (several at once, for rotation)",
    subcommands: [
      {
        command: "add",
        describe: "add a subscription key; prints it (shown once, keep it)",
        options: (argv) =>
          asJson(
            partnerId(argv, "partner", "the partner's id").option("sandbox", {
              type: "boolean",
              default: false,
              describe:
                "a key that works only in the sandbox: quotes apart from production's, numbered TEST-…, valid 7 days (their expires_at says so) and purged then"
            })
          ).epilogue("Example: SANDBOX_KEY=$(kasko keys add --partner bilhuset --sandbox)"),
        run: async (argv) => (await actions()).addKey(argv)
      },
      {
        command: "revoke",
        describe: "revoke a subscription key by its prefix",
        options: (argv) =>
          asJson(
            partnerId(argv, "partner", "the partner's id").option("key-prefix", {
              type: "string",
              demandOption: true,
              requiresArg: true,
              describe: "the start of the key after ksk_: at least 4 hex digits"
            })
          ),
        run: async (argv) => (await actions()).revokeKey(argv)
      }
    ]
  },
  {
    command: "tokens",
    describe: "issue bearer tokens signed with the embedded key pair",
    subcommands: [
      {
        command: "issue",
        describe: "issue a token for a partner; prints the token",
        options: (argv) =>
          asJson(
            partnerId(argv, "partner", "the partner's id")
              .option("scopes", {
                type: "string",
                demandOption: true,
                requiresArg: true,
                describe: `space-separated scopes: ${SCOPES_LINE}`
              })
              .option("ttl", {
                type: "string",
                default: "1h",
                requiresArg: true,
                describe: "lifetime: a number and s, m, h or d, at most KASKO_TOKEN_MAX_LIFETIME"
              })
          ).epilogue('Example: TOKEN=$(kasko tokens issue --partner bilhuset --scopes "offers:create quotes:read")'),
        run: async (argv) => (await actions()).issueToken(argv)
      }
    ]
  }
]
