/**
 * Example requests a partner sends: documentation for embedders and API
 * readers, and the fixtures of kasko's own tests and command line.
 */

/** Product parameters as a request carries them: every value a JSON string. */
export type ParameterValues = Record<string, string>

/** A complete Standard-variant parameter set (a person holds and uses a car for private driving), with overrides. */
export const standardParameters = (overrides: ParameterValues = {}): ParameterValues => ({
  payments_per_year: "1",
  policy_holder: "person",
  vehicle_type: "personbil",
  vehicle_user: "person",
  vehicle_owner: "organization",
  vehicle_usage: "privat_person_koersel",
  vehicle_price: "200000",
  ...overrides
})

/** An offer request `{product}` (spec §4, endpoint 2). */
export const offerRequest = (
  parameters: ParameterValues = standardParameters(),
  productName: string = "insurance-car-leasing",
  feature: string = "standard"
) => ({ product: { product_name: productName, parameters, features: [{ name: feature }] } })

/**
 * A valid quote request (spec §2.8) whose parties fit the role parameters: a
 * person (when a role parameter names one) and the partner organization, which
 * always owns the vehicle.
 */
export const quoteRequest = (
  parameters: ParameterValues = standardParameters(),
  productName: string = "insurance-car-leasing",
  feature: string = "standard"
) => {
  const holderIsPerson = parameters["policy_holder"] === "person"
  const userIsPerson = parameters["vehicle_user"] === "person"
  return {
    ...offerRequest(parameters, productName, feature),
    policy: {
      brand_id: "brand-1",
      external_reference: "lease-2026-0042",
      expected_effective_at: "2030-04-01",
      insurable_object: {
        vehicle: { make: "Škoda", model: "Enyaq", variant: "80 iV", vin: "TMBJB7NY5MF012345", registration_number: "AB 12 345" }
      },
      parties: [
        ...(holderIsPerson || userIsPerson
          ? [
              {
                policy_holder: holderIsPerson,
                vehicle_user: userIsPerson,
                person: { cpr_number: "0101901234", first_name: "Søren", last_name: "Kierkegård" },
                phone: "+45 12 34 56 78",
                email: "soeren@example.dk",
                address: { street: "Æblevej", house_number: "7", floor: "2", door: "tv", postal_code: 8000, city: "Aarhus C" }
              }
            ]
          : []),
        {
          policy_holder: !holderIsPerson,
          vehicle_user: !userIsPerson,
          vehicle_owner: true,
          organization: { name: "Leasing Partner ApS", cvr_number: "12345682" }
        }
      ]
    },
    agent: { user_id: "agent-7", organization: { name: "Bilhuset Øst A/S", cvr_number: "12345690", cvrp_number: "1012345678" } }
  }
}
