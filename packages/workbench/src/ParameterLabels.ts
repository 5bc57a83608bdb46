/** The product parameters in words, for charts and tables an actuary reads (field names stay in CSV headers). */

const LABELS: Readonly<Record<string, string>> = {
  payments_per_year: "Payments per year",
  policy_holder: "Policy holder",
  vehicle_type: "Vehicle type",
  vehicle_user: "Vehicle user",
  vehicle_owner: "Vehicle owner",
  vehicle_usage: "Vehicle usage",
  vehicle_price: "Vehicle price (kr)",
  youngest_user_age: "Youngest driver's age",
  youngest_user_birthdate: "Youngest driver's birth date"
}

/** `vehicle_price` → `Vehicle price (kr)`; an unknown name is shown as it is. */
export const parameterLabel = (name: string): string => LABELS[name] ?? name

/** The parameters a chart holds fixed, as one line: `Policy holder: person · Vehicle type: personbil`. */
export const fixedParametersLine = (
  parameters: Readonly<Record<string, string>>,
  except: ReadonlyArray<string>
): string =>
  Object.entries(parameters)
    .filter(([name]) => !except.includes(name))
    .map(([name, value]) => `${parameterLabel(name)}: ${value}`)
    .join(" · ")
