/**
 * What `kasko partners|keys|tokens …` do, on the service's database
 * (KASKO_DATABASE_URL, else the SQLite file in KASKO_DATA_DIR). A key or a
 * token is printed alone (it is what a script captures), with a note on
 * standard error; `--json` prints the whole record.
 */
import { Authentication, PartnerStore, ProductCatalogue } from "@kasko/core"
import { type Partner, PartnerAdministration } from "@kasko/core/administration"
import { SigningKey, SubscriptionKeys, Tokens } from "@kasko/credentials"
import { Cause, Effect, Exit, type Layer, Option, Result } from "effect"
import { type CommandResult, done, json, UsageError } from "./CommandResult.js"
import { messageOf } from "./FailureMessages.js"
import { commandProducts } from "./ProductFolders.js"
import { durationSeconds, readServiceConfig, tokenRulesOf, type ServiceConfig } from "./ServiceConfig.js"
import { storesLayer } from "./Stores.js"

type Arguments = Readonly<Record<string, unknown>>

const text = (argv: Arguments, name: string): string => argv[name] as string
const wantsJson = (argv: Arguments) => argv["json"] === true

export const configuration = (): ServiceConfig => {
  const config = readServiceConfig(process.env)
  if (Result.isFailure(config)) throw new UsageError(config.failure)
  return config.success
}

/** Runs a program on the configured stores; a failure becomes an Error with a sentence to print. */
export const runOnStore = async <A, E>(
  config: ServiceConfig,
  program: Effect.Effect<A, E, Layer.Success<ReturnType<typeof storesLayer>>>
): Promise<A> => {
  const exit = (await Effect.runPromiseExit(program.pipe(Effect.provide(storesLayer(config))))) as Exit.Exit<A, unknown>
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.findErrorOption(exit.cause)
  throw new Error(Option.isSome(failure) ? messageOf(failure.value) : Cause.pretty(exit.cause))
}

const partnerView = (partner: Partner.Partner) => ({
  ...partner,
  created_at: new Date(partner.created_at).toISOString()
})

/** A table of rows, columns padded to their widest cell. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
  const lines = [header, ...rows].map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd()
  )
  return `${lines.join("\n")}\n`
}

/**
 * The products `--products` names (comma-separated, or the option given more than once), with the names of the products the service sells — the shipped
 * ones and KASKO_PRODUCTS_DIR's — that they must be among; undefined when the option is not given.
 */
const productsGiven = (argv: Arguments) => {
  const named = argv["products"] as string | ReadonlyArray<string> | undefined
  if (named === undefined) return undefined
  const products = [named]
    .flat()
    .join(",")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
  const known = (commandProducts({})?.catalogue ?? ProductCatalogue.shipped).productNames
  return { products, known }
}

/** What `kasko partners list` shows of the products a partner may sell. */
const productsCell = (products: ReadonlyArray<string> | undefined): string =>
  products === undefined ? "all" : products.length === 0 ? "none" : products.join(",")

export const addPartner = async (argv: Arguments): Promise<CommandResult> => {
  const config = configuration()
  const cvr = argv["cvr"] as string | undefined
  const key = SubscriptionKeys.generateSubscriptionKey()
  const partner = await runOnStore(
    config,
    PartnerAdministration.addPartner(
      { partner_id: text(argv, "id"), name: text(argv, "name"), ...(cvr === undefined ? {} : { cvr_number: cvr }) },
      key,
      productsGiven(argv)
    )
  )
  return wantsJson(argv)
    ? done(json({ partner_id: partner.partner_id, subscription_key: key.key }))
    : done(`${key.key}\n`, `partner ${partner.partner_id} added; its subscription key (above) is shown only now\n`)
}

export const listPartners = async (argv: Arguments): Promise<CommandResult> => {
  const partners = (await runOnStore(configuration(), PartnerAdministration.listPartners)).map(partnerView)
  if (wantsJson(argv)) return done(json(partners))
  if (partners.length === 0) return done("", "no partners yet: kasko partners add --help\n")
  return done(
    table(
      ["ID", "NAME", "CVR", "STATUS", "CREATED", "PRODUCTS"],
      partners.map((partner) => [
        partner.partner_id,
        partner.name,
        partner.cvr_number ?? "",
        partner.status,
        partner.created_at,
        productsCell(partner.products)
      ])
    )
  )
}

export const suspendPartner = async (argv: Arguments): Promise<CommandResult> => {
  const partner = partnerView(await runOnStore(configuration(), PartnerAdministration.suspendPartner(text(argv, "id"))))
  return done(
    wantsJson(argv)
      ? json(partner)
      : `partner ${partner.partner_id} suspended: its keys and tokens are refused from now on\n`
  )
}

export const setProducts = async (argv: Arguments): Promise<CommandResult> => {
  const given = productsGiven(argv)
  if (given === undefined && argv["all-products"] !== true)
    throw new UsageError("name the products with --products, or give --all-products to let the partner sell every one")
  if (given !== undefined && argv["all-products"] === true)
    throw new UsageError("give either --products or --all-products, not both")
  const partner = partnerView(
    await runOnStore(configuration(), PartnerAdministration.setPartnerProducts(text(argv, "id"), given))
  )
  return done(
    wantsJson(argv)
      ? json(partner)
      : `partner ${partner.partner_id} may sell ${partner.products === undefined ? "every product" : partner.products.length === 0 ? "no product" : partner.products.join(", ")}, from its next request on\n`
  )
}

export const addKey = async (argv: Arguments): Promise<CommandResult> => {
  const partnerId = text(argv, "partner")
  const sandbox = argv["sandbox"] === true
  const key = SubscriptionKeys.generateSubscriptionKey()
  await runOnStore(configuration(), PartnerAdministration.addSubscriptionKey(partnerId, key, { sandbox }))
  return wantsJson(argv)
    ? done(json({ partner_id: partnerId, subscription_key: key.key, ...(sandbox ? { environment: "sandbox" } : {}) }))
    : done(
        `${key.key}\n`,
        sandbox
          ? `sandbox key added for ${partnerId}: it works only in the sandbox; it is shown only now\n`
          : `key added for ${partnerId}; it is shown only now\n`
      )
}

export const revokeKey = async (argv: Arguments): Promise<CommandResult> => {
  const partnerId = text(argv, "partner")
  const prefix = text(argv, "key-prefix").replace(/^ksk_/, "")
  if (!/^[0-9a-f]{4,12}$/.test(prefix))
    throw new UsageError("--key-prefix takes at least 4 hex digits of the key after ksk_")
  const revoked = await runOnStore(configuration(), PartnerAdministration.revokeSubscriptionKey(partnerId, prefix))
  return done(
    wantsJson(argv)
      ? json({ partner_id: partnerId, revoked })
      : `revoked ${revoked} key${revoked === 1 ? "" : "s"} of ${partnerId} starting with ksk_${prefix}\n`
  )
}

/** The token lifetime `--ttl` asks for, within the service's KASKO_TOKEN_MAX_LIFETIME. */
const ttlSeconds = (ttl: string, maxLifetimeSeconds: number): number => {
  const seconds = durationSeconds(ttl)
  if (seconds === undefined)
    throw new UsageError(`--ttl takes a number and a unit s, m, h or d (like 1h), not "${ttl}"`)
  if (seconds > maxLifetimeSeconds) {
    throw new UsageError(
      `--ttl may be at most ${maxLifetimeSeconds} seconds: the service refuses tokens living longer (KASKO_TOKEN_MAX_LIFETIME)`
    )
  }
  return seconds
}

const scopesOf = (scopes: string): Array<string> => {
  const requested = scopes.split(/\s+/).filter((scope) => scope !== "")
  const known: ReadonlyArray<string> = Authentication.SCOPES
  if (requested.length === 0) throw new UsageError(`--scopes needs at least one of: ${known.join(" ")}`)
  const unknown = requested.filter((scope) => !known.includes(scope))
  if (unknown.length > 0)
    throw new UsageError(
      `unknown scope ${unknown.map((scope) => `"${scope}"`).join(", ")}; scopes are: ${known.join(" ")}`
    )
  return requested
}

export const issueToken = async (argv: Arguments): Promise<CommandResult> => {
  const config = configuration()
  const partnerId = text(argv, "partner")
  const scopes = scopesOf(text(argv, "scopes"))
  const ttl = ttlSeconds(text(argv, "ttl"), config.tokenMaxLifetimeSeconds)
  if (Option.isSome(config.jwksUrl))
    throw new Error("KASKO_JWKS_URL is set: tokens come from the identity provider, not from kasko")
  const partner = await runOnStore(
    config,
    Effect.flatMap(PartnerStore.PartnerStore, (store) => store.findPartner(partnerId))
  )
  if (Option.isNone(partner)) throw new Error(`no partner with id "${partnerId}"`)
  if (partner.value.status !== "active") throw new Error(`partner "${partnerId}" is suspended`)
  const key = await SigningKey.loadOrCreateSigningKey(config.dataDirectory)
  const token = await Tokens.issueToken(key, { ...tokenRulesOf(config), partnerId, scopes, ttlSeconds: ttl })
  return done(wantsJson(argv) ? json({ token, partner_id: partnerId, scopes, expires_in_seconds: ttl }) : `${token}\n`)
}
