/**
 * The tariff documents shipped with kasko (the reference tariff v1 of both
 * products, JSON under packages/core/tariffs), and the coverage names they
 * give quotes and offers, which the answers' schemas list.
 */
import leasingV1 from "../../tariffs/insurance-car-leasing/v1.json" with { type: "json" }
import standaloneV1 from "../../tariffs/insurance-car-standalone/v1.json" with { type: "json" }

/** The tariff documents shipped with kasko: the reference tariff v1 of both products. */
export const SHIPPED_TARIFF_DOCUMENTS: ReadonlyArray<unknown> = [leasingV1, standaloneV1]

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

// read from the documents as they are, not decoded: decoding and compiling both again would cost start-up ~3 ms,
// and TariffBook.shipped refuses a shipped document that does not decode anyway
const coverageNamesOf = (document: unknown): ReadonlyArray<string> => {
  const rules = isRecord(document) && Array.isArray(document["rules"]) ? (document["rules"] as Array<unknown>) : []
  return rules.flatMap((rule) => {
    const event = isRecord(rule) ? rule["event"] : undefined
    const params = isRecord(event) && isRecord(event["params"]) ? event["params"] : {}
    const name =
      isRecord(event) && event["type"] === "add_coverage"
        ? params["coverage"]
        : isRecord(event) && event["type"] === "list_charge_as_coverage"
          ? params["charge"]
          : undefined
    return typeof name === "string" ? [name] : []
  })
}

/**
 * The names a quote's or an offer's coverage carries when priced with the shipped tariffs: each coverage a
 * rule adds and each charge a rule lists as a coverage (spec §2.5), in the order the tariffs first name them.
 */
export const SHIPPED_COVERAGE_NAMES: ReadonlyArray<string> = [
  ...new Set(SHIPPED_TARIFF_DOCUMENTS.flatMap(coverageNamesOf))
]
