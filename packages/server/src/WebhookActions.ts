/**
 * What `kasko webhooks …` do, on the service's database. A secret is printed
 * alone (what a script captures) with a note on standard error; `--json`
 * prints the whole record.
 */
import { EventOutbox, IdGenerator, PartnerStore } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { Clock, Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { configuration, runOnStore, table } from "./AdminActions.js"
import { type CommandResult, done, json, UsageError } from "./CommandResult.js"
import { endpointPolicyOf } from "./ServiceConfig.js"

type Arguments = Readonly<Record<string, unknown>>

const text = (argv: Arguments, name: string): string => argv[name] as string
const wantsJson = (argv: Arguments) => argv["json"] === true
const isoOrEmpty = (millis: number | undefined) => (millis === undefined ? "" : new Date(millis).toISOString())

const ids = IdGenerator.layerFromRandomBytes(randomBytes)

/** The partner must exist: a subscription for a typo would never receive anything. */
const existingPartner = (partnerId: string) =>
  Effect.flatMap(PartnerStore.PartnerStore, (store) => store.findPartner(partnerId)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail({ _tag: "PartnerNotFound" as const, partner_id: partnerId }),
        onSome: Effect.succeed
      })
    )
  )

export const addWebhook = async (argv: Arguments): Promise<CommandResult> => {
  const config = configuration()
  const partnerId = text(argv, "partner")
  const eventTypes = text(argv, "events")
    .split(",")
    .map((type) => type.trim())
    .filter((type) => type !== "")
  const subscription = await runOnStore(
    config,
    Effect.andThen(
      existingPartner(partnerId),
      WebhookAdministration.createSubscription(
        partnerId,
        { url: text(argv, "url"), event_types: eventTypes },
        endpointPolicyOf(config)
      ).pipe(Effect.provide(ids))
    )
  )
  return wantsJson(argv)
    ? done(json(subscription))
    : done(
        `${subscription.secret}\n`,
        `webhook ${subscription.subscription_id} added for ${partnerId}; its signing secret (above) is shown only now\n`
      )
}

export const listWebhooks = async (argv: Arguments): Promise<CommandResult> => {
  const partnerId = text(argv, "partner")
  const subscriptions = await runOnStore(configuration(), WebhookAdministration.listSubscriptions(partnerId))
  if (wantsJson(argv)) return done(json(subscriptions))
  if (subscriptions.length === 0)
    return done("", `${partnerId} has no webhook subscriptions: kasko webhooks add --help\n`)
  return done(
    table(
      ["ID", "URL", "EVENTS", "CREATED"],
      subscriptions.map((each) => [
        each.subscription_id,
        each.url,
        each.event_types.join(","),
        isoOrEmpty(each.created_at)
      ])
    )
  )
}

export const removeWebhook = async (argv: Arguments): Promise<CommandResult> => {
  const partnerId = text(argv, "partner")
  const id = text(argv, "id")
  await runOnStore(configuration(), WebhookAdministration.removeSubscription(partnerId, id))
  return done(
    wantsJson(argv) ? json({ subscription_id: id, removed: true }) : `webhook ${id} of ${partnerId} removed\n`
  )
}

export const rotateWebhookSecret = async (argv: Arguments): Promise<CommandResult> => {
  const partnerId = text(argv, "partner")
  const rotated = await runOnStore(
    configuration(),
    WebhookAdministration.rotateSecret(partnerId, text(argv, "id")).pipe(Effect.provide(ids))
  )
  return wantsJson(argv)
    ? done(json(rotated))
    : done(
        `${rotated.secret}\n`,
        `webhook ${rotated.subscription_id} signs with the new secret (above) from its next delivery; shown only now\n`
      )
}

export const listDeliveries = async (argv: Arguments): Promise<CommandResult> => {
  const limit = argv["limit"] as number
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new UsageError("--limit takes a whole number from 1 to 1000")
  const partnerId = text(argv, "partner")
  const deliveries = await runOnStore(
    configuration(),
    Effect.flatMap(EventOutbox.EventOutbox, (outbox) =>
      outbox.deliveriesOf(partnerId, { limit, deadLetteredOnly: argv["failed"] === true })
    )
  )
  if (wantsJson(argv)) return done(json(deliveries))
  if (deliveries.length === 0)
    return done("", `no ${argv["failed"] === true ? "dead-lettered " : ""}deliveries for ${partnerId}\n`)
  return done(
    table(
      ["DELIVERY", "EVENT", "QUOTE", "STATE", "ATTEMPTS", "LAST ATTEMPT", "NEXT ATTEMPT", "LAST ERROR"],
      deliveries.map((delivery) => [
        delivery.delivery_id,
        delivery.event_type,
        delivery.quote_id,
        delivery.state,
        String(delivery.attempts),
        isoOrEmpty(delivery.last_attempt_at),
        isoOrEmpty(delivery.next_attempt_at),
        delivery.last_error ?? ""
      ])
    )
  )
}

export const replayDelivery = async (argv: Arguments): Promise<CommandResult> => {
  const partnerId = text(argv, "partner")
  const deliveryId = text(argv, "delivery")
  const outcome = await runOnStore(
    configuration(),
    Effect.flatMap(EventOutbox.EventOutbox, (outbox) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => outbox.replay(partnerId, deliveryId, now))
    )
  )
  if (outcome._tag === "NotFound") throw new Error(`${partnerId} has no delivery "${deliveryId}"`)
  if (outcome._tag === "NotReplayable")
    throw new Error(
      outcome.state === "dead_lettered"
        ? `delivery "${deliveryId}" is dead_lettered, but its subscription ${outcome.subscription_id} is disabled: enable it first`
        : `delivery "${deliveryId}" is ${outcome.state}: only a dead-lettered delivery can be replayed`
    )
  return done(
    wantsJson(argv)
      ? json({ delivery_id: deliveryId, replayed: true })
      : `delivery ${deliveryId} is due again: the service sends it on its next round\n`
  )
}
