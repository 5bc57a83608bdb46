/**
 * Partners (the car dealers and leasing companies that call kasko) and their
 * subscription keys. A key is stored as its public prefix and a hash, never
 * in plaintext; the key itself is shown once, when it is made.
 * @module
 */
import { Schema } from "effect"
import { isCvrNumber } from "../quote/IdentityNumbers.js"
import { CheckedString, Text } from "../input/Fields.js"

const PartnerId = CheckedString(
  (value) => /^[a-z0-9][a-z0-9-]{1,62}$/.test(value),
  "must be 2–63 lower-case letters, digits and hyphens, starting with a letter or digit",
  { pattern: "^[a-z0-9][a-z0-9-]{1,62}$" }
)

/** Whether a partner's credentials work: `active`, or `suspended` (its quotes stay). */
export const PartnerStatus = Schema.Literals(["active", "suspended"])
export type PartnerStatus = typeof PartnerStatus.Type

/**
 * A partner of the insurer (a dealer, a leasing company …) that calls the API: its id, name, CVR number, status,
 * and the products it may sell (every product when absent).
 */
export const Partner = Schema.Struct({
  partner_id: PartnerId,
  name: Text(200),
  cvr_number: Schema.optionalKey(CheckedString(isCvrNumber, "must be 8 digits passing the CVR modulus-11 check")),
  status: PartnerStatus,
  /** The names of the products the partner may sell; absent, it may sell every product of the catalogue. */
  products: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Epoch milliseconds. */
  created_at: Schema.Int
})
export type Partner = typeof Partner.Type

/**
 * A subscription key as stored: its public prefix, the hash of the whole key, whether it is revoked, and — for a
 * key that works only in the partner's sandbox — `environment: "sandbox"` (absent: production).
 */
export const SubscriptionKeyRecord = Schema.Struct({
  partner_id: Schema.String,
  key_prefix: Schema.String,
  key_hash: Schema.String,
  created_at: Schema.Int,
  revoked_at: Schema.NullOr(Schema.Int),
  environment: Schema.optionalKey(Schema.Literal("sandbox"))
})
export type SubscriptionKeyRecord = typeof SubscriptionKeyRecord.Type
