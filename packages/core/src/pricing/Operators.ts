/** The json-rules-engine operators a condition may use: a tariff's rules and a product's variant rule alike. */
export const OPERATORS = [
  "equal",
  "notEqual",
  "lessThan",
  "lessThanInclusive",
  "greaterThan",
  "greaterThanInclusive",
  "in",
  "notIn"
] as const

/** The operators that compare a fact with one value, not a list. */
export const COMPARISON_OPERATORS = [
  "equal",
  "notEqual",
  "lessThan",
  "lessThanInclusive",
  "greaterThan",
  "greaterThanInclusive"
] as const

/** The operators that test a fact's membership of a list. */
export const MEMBERSHIP_OPERATORS = ["in", "notIn"] as const
