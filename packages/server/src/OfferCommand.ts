/**
 * `kasko offer`: prices an anonymous offer through the core and prints it as
 * JSON, or with `--explain` the rating worksheet behind it.
 */
import { parseArgs } from "node:util"
import { Examples, QuotingService, TariffBook } from "@kasko/core"
import { Cause, Effect, Exit } from "effect"
import { messageOf } from "./FailureMessages.js"

export const OFFER_USAGE = `usage: kasko offer [--product <product_name>] [--feature standard|premium]
                   [--param <name>=<value>]... [--explain]

Prices an anonymous offer with the shipped tariff and prints it as JSON.
--explain prints the rating worksheet instead. Without --param, a sample
leasing car is priced. Example:
  kasko offer --product insurance-car-standalone --feature premium \\
    --param policy_holder=person --param vehicle_user=person \\
    --param vehicle_owner=organization --param vehicle_type=personbil \\
    --param vehicle_usage=privat_person_koersel --param vehicle_price=350000`

/** The sample leasing car `kasko offer` prices when given no --param. */
export const SAMPLE_PARAMETERS = Examples.standardParameters({
  payments_per_year: "12",
  vehicle_price: "350000",
  youngest_user_age: "23"
})

/** The outcome of a command: what to print and the exit code. */
export interface CommandResult {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: number
}

const parameterPair = (pair: string): [string, string] => {
  const separator = pair.indexOf("=")
  if (separator <= 0) throw new Error(`--param takes <name>=<value>, got "${pair}"`)
  return [pair.slice(0, separator), pair.slice(separator + 1)]
}

/** Runs `kasko offer` with its arguments (after the word `offer`). */
export const runOfferCommand = async (args: ReadonlyArray<string>): Promise<CommandResult> => {
  let options
  try {
    options = parseArgs({
      args: [...args],
      options: {
        product: { type: "string", default: "insurance-car-leasing" },
        feature: { type: "string", default: "standard" },
        param: { type: "string", multiple: true, default: [] },
        explain: { type: "boolean", default: false },
        help: { type: "boolean", default: false }
      },
      strict: true
    }).values
    if (options.help) return { stdout: `${OFFER_USAGE}\n`, stderr: "", exitCode: 0 }
    const parameters = options.param.length === 0 ? SAMPLE_PARAMETERS : Object.fromEntries(options.param.map(parameterPair))
    const request = { product: { product_name: options.product, parameters, features: [{ name: options.feature }] } }
    const program: Effect.Effect<unknown, unknown, TariffBook.TariffBook> = options.explain
      ? QuotingService.explainPrice(request)
      : QuotingService.createOffer(request)
    const exit = await Effect.runPromiseExit(Effect.provide(program, TariffBook.shipped))
    if (Exit.isSuccess(exit)) {
      const note = options.param.length === 0 ? "(no --param given: priced the sample leasing car; see --help)\n" : ""
      return { stdout: `${JSON.stringify(exit.value, null, 2)}\n`, stderr: note, exitCode: 0 }
    }
    return { stdout: "", stderr: `kasko offer: ${messageOf(Cause.squash(exit.cause))}\n`, exitCode: 1 }
  } catch (error) {
    return { stdout: "", stderr: `kasko offer: ${(error as Error).message}\n${OFFER_USAGE}\n`, exitCode: 2 }
  }
}
