/** The core's failures as sentences a person at a terminal can act on: no tags, no JSON. */

interface TaggedFailure {
  readonly _tag?: string
  readonly partner_id?: string
  readonly key_prefix?: string
  readonly subscription_id?: string
  readonly product_name?: string
  readonly variant?: string
  readonly quote_id?: string
  readonly pricing_date?: string
  readonly reason?: string
  readonly limit?: number
  readonly violations?: ReadonlyArray<{ readonly field: string; readonly message: string }>
}

/** One line per problem. */
export const messageOf = (error: unknown): string => {
  const failure = (typeof error === "object" && error !== null ? error : {}) as TaggedFailure
  switch (failure._tag) {
    case "ConstraintViolation":
      return (failure.violations ?? []).map((violation) => `${violation.field} ${violation.message}`).join("\n")
    case "PartnerNotFound":
      return `no partner with id "${failure.partner_id}"`
    case "PartnerAlreadyExists":
      return `a partner with id "${failure.partner_id}" already exists`
    case "SubscriptionKeyNotFound":
      return `partner "${failure.partner_id}" has no active key starting with "${failure.key_prefix}"`
    case "SubscriptionNotFound":
      return `no webhook subscription "${failure.subscription_id}" for this partner`
    case "SubscriptionLimitReached":
      return `the partner has ${failure.limit} webhook subscriptions, as many as one partner may have (KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER): remove one first`
    case "ProductNotFound":
      return failure.variant === undefined || failure.variant === ""
        ? `no product named "${failure.product_name}"`
        : `the product "${failure.product_name}" has no variant "${failure.variant}" (the variants are standard and extended)`
    case "QuoteNotFound":
      return `no quote "${failure.quote_id}" of this partner (unknown, another partner's, or 30 days old — 7 in its sandbox)`
    case "TariffNotInForce":
      return `no tariff of ${failure.product_name} is in force on ${failure.pricing_date}`
    case "StorageUnavailable":
      return `the database is unavailable: ${failure.reason}`
    default:
      return error instanceof Error ? error.message : String(error)
  }
}
