/**
 * What `compare_features` answers: one case priced with each of its product's features and each of its payment
 * plans (`payments_per_year`: once a year, or monthly), every option an offer of its own from the core — so that an
 * agent can lay the choices side by side. What a plan costs per payment is what a quote would charge: the annual
 * price paid once, or the monthly price paid twelve times (spec §2.9 `price.amount`).
 */
import { type CoreError, QuotingService, type TariffBook } from "@kasko/core"
import type { PriceOffer } from "@kasko/core"
import { Effect, Schema } from "effect"

/** The parameter that says how often the customer pays, and how many payments a year each option means. */
const PAYMENTS_PER_YEAR = "payments_per_year"

const ComparedOption = Schema.Struct({
  feature: Schema.String,
  feature_title: Schema.String,
  payments_per_year: Schema.Int,
  amount_per_payment: Schema.Int.annotate({ description: "What the customer pays each time, in kroner" }),
  paid_per_year: Schema.Int.annotate({ description: "amount_per_payment × payments_per_year, in kroner" }),
  annually: Schema.Int,
  monthly: Schema.Int,
  coverages: Schema.Array(Schema.String).annotate({ description: "The coverages the option includes" })
})

/** Every option of a case: feature × payment plan. */
export const FeatureComparison = Schema.Struct({
  product_name: Schema.String,
  options: Schema.Array(ComparedOption)
}).annotate({ identifier: "FeatureComparison" })
export type FeatureComparison = typeof FeatureComparison.Type

interface OfferArguments {
  readonly product: {
    readonly product_name: string
    readonly parameters: Readonly<Record<string, unknown>>
    readonly features: ReadonlyArray<unknown>
  }
}

/** The arguments with another feature and payment plan (the plan left as given where the product has none). */
const varied = (request: OfferArguments, feature: string, payments: string | undefined): OfferArguments => ({
  ...request,
  product: {
    ...request.product,
    features: [{ name: feature }],
    parameters:
      payments === undefined
        ? request.product.parameters
        : { ...request.product.parameters, [PAYMENTS_PER_YEAR]: payments }
  }
})

/**
 * The case of an offer request priced with every feature and payment plan of its product. The request as given is
 * priced first, so that arguments that break rules fail with the violations an offer answers.
 */
export const compareFeatures = (
  input: unknown,
  products?: ReadonlyArray<string>
): Effect.Effect<FeatureComparison, CoreError, TariffBook.TariffBook> =>
  Effect.gen(function* () {
    const given = yield* QuotingService.createOffer(input, products)
    const request = input as OfferArguments
    const definition = yield* QuotingService.getProduct(given.product.product_name)
    const plans = definition.parameters
      .find((parameter) => parameter.name === PAYMENTS_PER_YEAR)
      ?.options?.map((option) => option.id) ?? [undefined]
    const options = yield* Effect.forEach(
      definition.features.flatMap((feature) => plans.map((plan) => ({ feature, plan }))),
      ({ feature, plan }) =>
        Effect.map(QuotingService.createOffer(varied(request, feature.name, plan)), (offer) =>
          optionOf(offer, feature.title, plan)
        )
    )
    return { product_name: given.product.product_name, options }
  })

const optionOf = (offer: PriceOffer, featureTitle: string, plan: string | undefined) => {
  const payments = Number(plan ?? offer.product.parameters[PAYMENTS_PER_YEAR] ?? 1)
  const perPayment = payments === 12 ? offer.price.monthly : offer.price.annually
  return {
    feature: offer.product.features[0]?.name ?? "",
    feature_title: featureTitle,
    payments_per_year: payments,
    amount_per_payment: perPayment,
    paid_per_year: perPayment * payments,
    annually: offer.price.annually,
    monthly: offer.price.monthly,
    coverages: (offer.policies[0]?.coverages ?? []).map((coverage) => coverage.name)
  }
}

/** The comparison in a few lines for the model, cheapest a year first. */
export const comparisonText = (comparison: FeatureComparison): string =>
  [
    `${comparison.product_name}, the same case with each feature and payment plan (cheapest a year first):`,
    ...[...comparison.options]
      .sort((a, b) => a.paid_per_year - b.paid_per_year)
      .map(
        (option) =>
          `- ${option.feature}, ${option.payments_per_year === 1 ? "paid once a year" : `paid ${option.payments_per_year} times a year`}: ${option.amount_per_payment} kr a payment, ${option.paid_per_year} kr a year; covers ${option.coverages.join(", ")}`
      )
  ].join("\n")
