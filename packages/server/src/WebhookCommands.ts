/**
 * `kasko webhooks …`: a partner's webhook subscriptions and their deliveries,
 * on the service's database. Definitions only; `WebhookActions.ts` does the
 * work and is imported when a command runs.
 */
import type { Argv } from "yargs"
import type { KaskoCommand } from "./KaskoCommand.js"

const actions = () => import("./WebhookActions.js")

const asJson = (argv: Argv) =>
  argv.option("json", { type: "boolean", default: false, describe: "print JSON instead of text" })

const partner = (argv: Argv) =>
  argv.option("partner", { type: "string", demandOption: true, requiresArg: true, describe: "the partner's id" })

const subscription = (argv: Argv) =>
  partner(argv).option("id", {
    type: "string",
    demandOption: true,
    requiresArg: true,
    describe: "the subscription's id (whk_…)"
  })

export const WEBHOOK_COMMANDS: ReadonlyArray<KaskoCommand> = [
  {
    command: "webhooks",
    describe: "a partner's webhook subscriptions, their deliveries, and replaying dead-lettered ones",
    subcommands: [
      {
        command: "add",
        describe: "subscribe an endpoint to quote events; prints its signing secret (shown once, keep it)",
        options: (argv) =>
          asJson(
            partner(argv)
              .option("url", {
                type: "string",
                demandOption: true,
                requiresArg: true,
                describe:
                  "the endpoint: https (http and private addresses only with KASKO_WEBHOOKS_ALLOW_INSECURE=true)"
              })
              .option("events", {
                type: "string",
                default: "quote.created,quote.activated,quote.expired",
                requiresArg: true,
                describe: "the event types, comma-separated"
              })
          ),
        run: async (argv) => (await actions()).addWebhook(argv)
      },
      {
        command: "list",
        describe: "list a partner's subscriptions (without their secrets)",
        options: (argv) => asJson(partner(argv)),
        run: async (argv) => (await actions()).listWebhooks(argv)
      },
      {
        command: "remove",
        describe: "remove a subscription and its pending deliveries",
        options: (argv) => asJson(subscription(argv)),
        run: async (argv) => (await actions()).removeWebhook(argv)
      },
      {
        command: "rotate-secret",
        describe: "give a subscription a new signing secret; prints it (shown once)",
        options: (argv) => asJson(subscription(argv)),
        run: async (argv) => (await actions()).rotateWebhookSecret(argv)
      },
      {
        command: "deliveries",
        describe: "a partner's recent deliveries, newest first; --failed for the dead-lettered ones",
        options: (argv) =>
          asJson(
            partner(argv)
              .option("failed", { type: "boolean", default: false, describe: "only the dead-lettered deliveries" })
              .option("limit", {
                type: "number",
                default: 50,
                requiresArg: true,
                describe: "at most this many (1–1000)"
              })
          ),
        run: async (argv) => (await actions()).listDeliveries(argv)
      },
      {
        command: "replay",
        describe: "put a dead-lettered delivery back in line: it is sent again now, its retry window restarted",
        options: (argv) =>
          asJson(
            partner(argv).option("delivery", {
              type: "string",
              demandOption: true,
              requiresArg: true,
              describe: "the delivery's id (dlv_…), from kasko webhooks deliveries --failed"
            })
          ),
        run: async (argv) => (await actions()).replayDelivery(argv)
      }
    ]
  }
]
