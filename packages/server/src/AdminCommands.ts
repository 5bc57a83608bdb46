/**
 * `kasko partners …`, `kasko keys …`, `kasko tokens issue`: administering
 * partners and their credentials on the same data directory as the service
 * (KASKO_DATA_DIR). Output is JSON (a token alone for `tokens issue`); errors
 * go to stderr with exit code 1, a malformed command line exits 2.
 */
import { PartnerAdministration, PartnerStore, type Partner } from "@kasko/core"
import { SCOPES } from "@kasko/express"
import { Cause, Effect, Either, Exit, Option } from "effect"
import { parseArgs } from "node:util"
import { messageOf } from "./FailureMessages.js"
import type { CommandResult } from "./OfferCommand.js"
import { storesLayer } from "./Service.js"
import { durationSeconds, readServiceConfig, tokenRulesOf, type ServiceConfig } from "./ServiceConfig.js"
import { SigningKey, SubscriptionKeys, Tokens } from "@kasko/credentials"

export const ADMIN_USAGE = `usage:
  kasko partners add --id <id> --name <name> [--cvr <cvr>]   prints {"partner_id", "subscription_key"}
  kasko partners list
  kasko partners suspend --id <id>
  kasko keys add --partner <id>                              prints {"partner_id", "subscription_key"}
  kasko keys revoke --partner <id> --key-prefix <prefix>
  kasko tokens issue --partner <id> --scopes "<space separated>" [--ttl 1h]   prints the token

scopes: ${SCOPES.join(", ")}
All commands use the service's database: KASKO_DATABASE_URL when set, else the SQLite file in KASKO_DATA_DIR (default ./data).`

class UsageError extends Error {}
class CommandError extends Error {}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

const partnerView = (partner: Partner.Partner) => ({ ...partner, created_at: new Date(partner.created_at).toISOString() })

const required = (values: Record<string, unknown>, name: string): string => {
  const value = values[name]
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`)
  return value
}

const options = (args: ReadonlyArray<string>, names: ReadonlyArray<string>) => {
  try {
    return parseArgs({
      args: [...args],
      options: Object.fromEntries(names.map((name) => [name, { type: "string" as const }])),
      strict: true,
      allowPositionals: false
    }).values as Record<string, string | undefined>
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

const runOnStore = async <A, E>(config: ServiceConfig, program: Effect.Effect<A, E, PartnerStore.PartnerStore>): Promise<A> => {
  const exit = await Effect.runPromiseExit(program.pipe(Effect.provide(storesLayer(config)))) as Exit.Exit<A, unknown>
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  throw new CommandError(Option.isSome(failure) ? messageOf(failure.value) : Cause.pretty(exit.cause))
}

/** The token lifetime `--ttl` asks for, within 1 second and the service's KASKO_TOKEN_MAX_LIFETIME. */
const ttlSeconds = (ttl: string, maxLifetimeSeconds: number): number => {
  const seconds = durationSeconds(ttl)
  if (seconds === undefined) throw new UsageError(`--ttl takes a number and a unit s, m, h or d (like 1h), not "${ttl}"`)
  if (seconds > maxLifetimeSeconds) {
    throw new UsageError(`--ttl may be at most ${maxLifetimeSeconds} seconds: the service refuses tokens living longer (KASKO_TOKEN_MAX_LIFETIME)`)
  }
  return seconds
}

const scopesOf = (scopes: string): Array<string> => {
  const requested = scopes.split(/\s+/).filter((scope) => scope !== "")
  if (requested.length === 0) throw new UsageError(`--scopes needs at least one of: ${SCOPES.join(" ")}`)
  const unknown = requested.filter((scope) => !(SCOPES as ReadonlyArray<string>).includes(scope))
  if (unknown.length > 0) throw new UsageError(`unknown scope ${unknown.map((scope) => `"${scope}"`).join(", ")}; scopes are: ${SCOPES.join(" ")}`)
  return requested
}

type Handler = (config: ServiceConfig, args: ReadonlyArray<string>) => Promise<string>

const HANDLERS: Readonly<Record<string, Handler>> = {
  "partners add": async (config, args) => {
    const values = options(args, ["id", "name", "cvr"])
    const input = { partner_id: required(values, "id"), name: required(values, "name"), ...(values["cvr"] === undefined ? {} : { cvr_number: values["cvr"] }) }
    const key = SubscriptionKeys.generateSubscriptionKey()
    const partner = await runOnStore(config, PartnerAdministration.addPartner(input, key))
    return json({ partner_id: partner.partner_id, subscription_key: key.key })
  },
  "partners list": async (config, args) => {
    options(args, [])
    return json((await runOnStore(config, PartnerAdministration.listPartners)).map(partnerView))
  },
  "partners suspend": async (config, args) => {
    const partnerId = required(options(args, ["id"]), "id")
    return json(partnerView(await runOnStore(config, PartnerAdministration.suspendPartner(partnerId))))
  },
  "keys add": async (config, args) => {
    const partnerId = required(options(args, ["partner"]), "partner")
    const key = SubscriptionKeys.generateSubscriptionKey()
    await runOnStore(config, PartnerAdministration.addSubscriptionKey(partnerId, key))
    return json({ partner_id: partnerId, subscription_key: key.key })
  },
  "keys revoke": async (config, args) => {
    const values = options(args, ["partner", "key-prefix"])
    const partnerId = required(values, "partner")
    const prefix = required(values, "key-prefix").replace(/^ksk_/, "")
    if (!/^[0-9a-f]{4,12}$/.test(prefix)) throw new UsageError("--key-prefix takes at least 4 hex digits of the key after ksk_")
    const revoked = await runOnStore(config, PartnerAdministration.revokeSubscriptionKey(partnerId, prefix))
    return json({ partner_id: partnerId, revoked })
  },
  "tokens issue": async (config, args) => {
    const values = options(args, ["partner", "scopes", "ttl"])
    const partnerId = required(values, "partner")
    const scopes = scopesOf(required(values, "scopes"))
    const ttl = ttlSeconds(values["ttl"] ?? "1h", config.tokenMaxLifetimeSeconds)
    if (Option.isSome(config.jwksUrl)) throw new CommandError("KASKO_JWKS_URL is set: tokens come from the identity provider, not from kasko")
    const partner = await runOnStore(config, Effect.flatMap(PartnerStore.PartnerStore, (store) => store.findPartner(partnerId)))
    if (Option.isNone(partner)) throw new CommandError(`no partner with id "${partnerId}"`)
    if (partner.value.status !== "active") throw new CommandError(`partner "${partnerId}" is suspended`)
    const key = await SigningKey.loadOrCreateSigningKey(config.dataDirectory)
    return `${await Tokens.issueToken(key, { ...tokenRulesOf(config), partnerId, scopes, ttlSeconds: ttl })}\n`
  }
}

/** Runs `kasko <group> <action> …`. */
export const runAdminCommand = async (group: string, args: ReadonlyArray<string>): Promise<CommandResult> => {
  const [action = "", ...rest] = args
  const name = `${group} ${action}`
  const handler = HANDLERS[name]
  if (handler === undefined) return { stdout: "", stderr: `kasko: unknown command "${name.trim()}"\n${ADMIN_USAGE}\n`, exitCode: 2 }
  const config = readServiceConfig(process.env)
  if (Either.isLeft(config)) return { stdout: "", stderr: `kasko ${name}: ${config.left}\n`, exitCode: 2 }
  try {
    return { stdout: await handler(config.right, rest), stderr: "", exitCode: 0 }
  } catch (error) {
    if (error instanceof UsageError) return { stdout: "", stderr: `kasko ${name}: ${error.message}\n${ADMIN_USAGE}\n`, exitCode: 2 }
    return { stdout: "", stderr: `kasko ${name}: ${(error as Error).message}\n`, exitCode: 1 }
  }
}
