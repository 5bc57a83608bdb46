/**
 * The segments an impact report breaks a portfolio down by — product, variant,
 * feature, vehicle type, the youngest driver's age band and the vehicle price
 * band — each read from a case's pricing facts (the vehicle type from its
 * parameters where its product does not price by it), and the order they are
 * listed in. A product without such a parameter is "not given" there; a product
 * added as data is broken down by its own parameters too (ParameterSegments.ts).
 */

/** The segments the report breaks the portfolio down by, each read from the case's pricing facts. */
export const SEGMENT_DIMENSIONS = [
  "product",
  "variant",
  "feature",
  "vehicle_type",
  "driver_age_band",
  "vehicle_price_band"
] as const
/** A dimension an impact test splits the book by (`product`, `variant`, `driver_age_band` …): one of SEGMENT_DIMENSIONS. */
export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number]

/** Each segment dimension as the reports title it (the command's text and the workbench page). */
export const SEGMENT_TITLES: Readonly<Record<SegmentDimension, string>> = {
  product: "product",
  variant: "variant",
  feature: "feature",
  vehicle_type: "vehicle type",
  driver_age_band: "youngest driver's age",
  vehicle_price_band: "vehicle price (kr)"
}

/** The youngest driver's age bands: the reference tariff's loading bands, then decades of adulthood. */
export const DRIVER_AGE_BANDS: ReadonlyArray<{ readonly label: string; readonly up_to: number }> = [
  { label: "17–20", up_to: 20 },
  { label: "21–24", up_to: 24 },
  { label: "25–27", up_to: 27 },
  { label: "28–34", up_to: 34 },
  { label: "35–49", up_to: 49 },
  { label: "50–64", up_to: 64 },
  { label: "65–99", up_to: 99 }
]
/** The segment of the cases without the value: no age given, or a product without the parameter. */
export const NOT_GIVEN = "not given"

/** Vehicle price bands in kroner: the reference tariff's kasko band ends at 300 000. */
export const VEHICLE_PRICE_BANDS: ReadonlyArray<{ readonly label: string; readonly up_to: number }> = [
  { label: "≤ 100 000", up_to: 100_000 },
  { label: "100 001–200 000", up_to: 200_000 },
  { label: "200 001–300 000", up_to: 300_000 },
  { label: "300 001–500 000", up_to: 500_000 },
  { label: "500 001–1 000 000", up_to: 1_000_000 },
  { label: "> 1 000 000", up_to: Number.POSITIVE_INFINITY }
]

/** The age band of the youngest driver's age, "not given" without one. */
export const ageBandOf = (age: number | null): string => {
  if (age === null) return NOT_GIVEN
  for (const band of DRIVER_AGE_BANDS) if (age <= band.up_to) return band.label
  return DRIVER_AGE_BANDS.at(-1)!.label
}

/** The band of a vehicle price in kroner; "not given" for a product without one. */
export const priceBandOf = (price: number | undefined): string => {
  if (price === undefined) return NOT_GIVEN
  for (const band of VEHICLE_PRICE_BANDS) if (price <= band.up_to) return band.label
  return VEHICLE_PRICE_BANDS.at(-1)!.label
}

/** The order segments are listed in: bands in their order, named values as the catalogue lists them. */
const SEGMENT_ORDER: Readonly<Record<SegmentDimension, ReadonlyArray<string>>> = {
  product: ["insurance-car-leasing", "insurance-car-standalone"],
  variant: ["standard", "extended"],
  feature: ["standard", "premium"],
  vehicle_type: ["personbil", "varevogn", NOT_GIVEN],
  driver_age_band: [...DRIVER_AGE_BANDS.map((band) => band.label), NOT_GIVEN],
  vehicle_price_band: [...VEHICLE_PRICE_BANDS.map((band) => band.label), NOT_GIVEN]
}

/** Where a segment is listed among its dimension's: unknown values after the known ones. */
export const segmentRank = (dimension: SegmentDimension, segment: string): number => {
  const index = SEGMENT_ORDER[dimension].indexOf(segment)
  return index === -1 ? SEGMENT_ORDER[dimension].length : index
}

/** A case's vehicle type: the fact, or — a product that does not price by it — the parameter; "not given" without. */
export const vehicleTypeOf = (facts: Readonly<Record<string, unknown>>, parameters: Readonly<Record<string, string>>) =>
  String(facts["vehicle_type"] ?? parameters["vehicle_type"] ?? NOT_GIVEN)
