/**
 * Parties of a quote (spec §2.7) and the role rules (DESIGN §2): for each role
 * (policy_holder, vehicle_user, vehicle_owner) at least one party has it, and
 * every party that has it carries the object the parameter names; the vehicle
 * owner is always the partner organization.
 */
import { Schema } from "effect"
import type { Violation } from "../Errors.js"
import { isCprNumber, isCvrNumber, isPostalCode } from "./IdentityNumbers.js"
import { PARTY_KINDS, type PartyKind, type PartyRole } from "../product/ProductDocument.js"
import { CheckedString, Flag, optionalString, RequestArray, RequestObject, rule, Text } from "../input/Fields.js"

export const ROLES = ["policy_holder", "vehicle_user", "vehicle_owner"] as const
export type Role = (typeof ROLES)[number]

export const CprNumber = CheckedString(isCprNumber, "must be 10 digits starting with a real date (DDMMYY)", {
  pattern: "^[0-9]{10}$"
})
export const CvrNumber = CheckedString(isCvrNumber, "must be 8 digits passing the CVR modulus-11 check", {
  pattern: "^[1-9][0-9]{7}$"
})

export const Person = RequestObject({
  cpr_number: CprNumber,
  first_name: Text(100),
  last_name: Text(100)
})

export const Organization = RequestObject({
  name: Text(200),
  cvr_number: CvrNumber
})

export const PostalCode = Schema.Number.annotate({ message: "must be an integer" }).check(
  // finite first, as Effect's own number schemas say, so that a document shows a plain integer
  Schema.isFinite({ message: "must be an integer" }).abort(),
  rule((value: number) => Number.isInteger(value) || "must be an integer", {
    toJsonSchema: () => ({ type: "integer" })
  }),
  rule((value: number) => isPostalCode(value) || "must be a Danish postal code, 0555–9990", {
    toJsonSchema: () => ({ minimum: 555, maximum: 9990 })
  })
)

export const Address = RequestObject({
  protected: Schema.optionalKey(Flag),
  street: Text(100),
  house_number: Text(10),
  floor: optionalString(Text(10), { maxLength: 10 }),
  door: optionalString(Text(10), { maxLength: 10 }),
  postal_code: PostalCode,
  city: Text(100)
})

const PHONE_FORM = /^\+?[0-9 ]{8,20}$/
const Phone = CheckedString(
  (value) => PHONE_FORM.test(value),
  "must be a phone number: digits, spaces and an optional leading +",
  {
    maxLength: 20
  }
)
const EMAIL_FORM = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const Email = CheckedString((value) => value.length <= 254 && EMAIL_FORM.test(value), "must be an e-mail address", {
  format: "email",
  maxLength: 254
})

/** A party as a quote request carries it and the quote registers it. */
export const Party = RequestObject({
  policy_holder: Schema.optionalKey(Flag),
  vehicle_owner: Schema.optionalKey(Flag),
  vehicle_user: Schema.optionalKey(Flag),
  person: Schema.optionalKey(Person),
  organization: Schema.optionalKey(Organization),
  phone: optionalString(Phone, {
    maxLength: 20,
    pattern: PHONE_FORM.source,
    description: "A phone number: digits, spaces and an optional leading +"
  }),
  email: optionalString(Email, { maxLength: 254, pattern: EMAIL_FORM.source, description: "An e-mail address" }),
  address: Schema.optionalKey(Address)
})
export type Party = typeof Party.Type

export const MAX_PARTIES = 10

const partiesCount = `must hold 1 to ${MAX_PARTIES} parties`

export const Parties = RequestArray(Party).check(
  Schema.isMinLength(1, { message: partiesCount, description: `The parties of the policy: 1 to ${MAX_PARTIES}` }),
  Schema.isMaxLength(MAX_PARTIES, { message: partiesCount })
)

/** The role parameters a quote's parties must match. */
export type RoleParameters = Readonly<Record<Role, PartyKind>>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isPartyKind = (value: unknown): value is PartyKind => (PARTY_KINDS as ReadonlyArray<unknown>).includes(value)

/**
 * The role rules, read from the raw request so they are reported together with
 * every Schema violation. Roles whose parameter is itself invalid are skipped
 * (the parameter's own violation says why).
 */
export const checkRoles = (
  partyRoles: ReadonlyArray<PartyRole>,
  rawParameters: unknown,
  rawParties: unknown
): Array<Violation> => {
  if (!isRecord(rawParameters) || !Array.isArray(rawParties)) return []
  const violations: Array<Violation> = []
  for (const { parameter, quoted_only_as } of partyRoles) {
    const kind = rawParameters[parameter]
    if (quoted_only_as !== undefined && isPartyKind(kind) && kind !== quoted_only_as.kind)
      violations.push({
        field: `product.parameters.${parameter}`,
        message: `must be ${quoted_only_as.kind}: ${quoted_only_as.because}`
      })
  }
  rawParties.forEach((party, index) => {
    if (!isRecord(party)) return
    if (!ROLES.some((role) => party[role] === true)) {
      violations.push({
        field: `policy.parties[${index}]`,
        message: `must have at least one role: ${ROLES.join(", ")}`
      })
    }
    if (!isRecord(party["person"]) && !isRecord(party["organization"])) {
      violations.push({ field: `policy.parties[${index}]`, message: "must carry a person or an organization" })
    }
  })
  for (const { role, parameter } of partyRoles) {
    const kind = rawParameters[parameter]
    if (!isPartyKind(kind)) continue
    const holders = rawParties
      .map((party, index) => ({ party, index }))
      .filter(({ party }) => isRecord(party) && party[role] === true)
    if (holders.length === 0) {
      violations.push({ field: "policy.parties", message: `must include a party with ${role}: true` })
    }
    for (const { party, index } of holders) {
      if (!isRecord((party as Record<string, unknown>)[kind])) {
        violations.push({
          field: `policy.parties[${index}].${kind}`,
          message: `is required: the party is ${role} and product.parameters.${parameter} is ${kind}`
        })
      }
    }
  }
  return violations
}
