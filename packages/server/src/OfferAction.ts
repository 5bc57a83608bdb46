/**
 * What `kasko offer` does: prices the request with the shipped tariff (or the products of a directory beside them) and
 * prints the price in words, the offer as JSON (`--json`) or the rating
 * worksheet (`--explain`).
 */
import { DocumentLinks, Examples, QuotingService, TariffBook } from "@kasko/core"
import { Money } from "@kasko/core/actuarial"
import type { Offer } from "@kasko/core/transport"
import { Cause, Effect, Exit, Layer, Result } from "effect"
import { type CommandResult, done, failed, json, UsageError } from "./CommandResult.js"
import { commandProducts, tariffBookOf } from "./ProductFolders.js"
import { messageOf } from "./FailureMessages.js"
import { apiRootOf, documentLinksOf, readServiceConfig } from "./ServiceConfig.js"

type Arguments = Readonly<Record<string, unknown>>

/** The sample leasing car `kasko offer` prices when given no --param. */
export const SAMPLE_PARAMETERS = Examples.standardParameters({
  payments_per_year: "12",
  vehicle_price: "350000",
  youngest_user_age: "23"
})

const parameterPair = (pair: string): [string, string] => {
  const separator = pair.indexOf("=")
  if (separator <= 0) throw new UsageError(`--param takes <name>=<value>, got "${pair}"`)
  return [pair.slice(0, separator), pair.slice(separator + 1)]
}

/** Whole kroner as Danish prose writes them: 13002 → "13.002 kr". */
const kroner = (amount: number) =>
  `${Money.formatKroner(Money.oreOfKroner(amount), { ...Money.DANISH, decimals: 0 })} kr`

/** The offer in words: price, coverages, product information. */
const offerText = (offer: Offer.PriceOffer): string => {
  const { product, price, policies } = offer
  const payments = product.parameters["payments_per_year"] ?? "1"
  const coverages = (policies[0]?.coverages ?? []).map((coverage) =>
    coverage.deductible === undefined ? coverage.name : `${coverage.name} (deductible ${kroner(coverage.deductible)})`
  )
  const monthly = payments === "12" ? `, paid as ${kroner(price.monthly)} a month` : ""
  const lines = [
    `${product.product_name}, ${product.features[0]?.name} feature: ${kroner(price.annually)} a year${monthly}`,
    `coverages: ${coverages.join(", ")}`,
    `product information: ${policies[0]?.ipid_href ?? ""}`
  ]
  return `${lines.join("\n")}\n`
}

export const priceOffer = async (argv: Arguments): Promise<CommandResult> => {
  const pairs = (argv["param"] as Array<string> | undefined) ?? []
  const parameters = pairs.length === 0 ? SAMPLE_PARAMETERS : Object.fromEntries(pairs.map(parameterPair))
  const request = { product: { product_name: argv["product"], parameters, features: [{ name: argv["feature"] }] } }
  const note = pairs.length === 0 ? "(no --param given: priced the sample leasing car; see kasko offer --help)\n" : ""
  // the products and links the service configured in this environment would sell and give: a configuration the
  // service would refuse (a link URL that is not one, a product directory with an error) is refused here too
  const environment =
    typeof argv["products"] === "string" ? { ...process.env, KASKO_PRODUCTS_DIR: argv["products"] } : process.env
  const config = readServiceConfig(environment)
  if (Result.isFailure(config)) throw new UsageError(config.failure)
  const products = commandProducts(argv, environment)
  const tariffs = products === undefined ? TariffBook.shipped : tariffBookOf(products)
  if (argv["explain"] === true) {
    const exit = await Effect.runPromiseExit(Effect.provide(QuotingService.explainPrice(request), tariffs))
    return Exit.isSuccess(exit) ? done(json(exit.value), note) : failed("offer", messageOf(Cause.squash(exit.cause)))
  }
  const links = Layer.succeed(
    DocumentLinks.DocumentLinks,
    documentLinksOf(config.success, () => apiRootOf(config.success, config.success.port))
  )
  const exit = await Effect.runPromiseExit(
    Effect.provide(QuotingService.createOffer(request), Layer.merge(tariffs, links))
  )
  if (Exit.isFailure(exit)) return failed("offer", messageOf(Cause.squash(exit.cause)))
  return done(argv["json"] === true ? json(exit.value) : offerText(exit.value), note)
}
