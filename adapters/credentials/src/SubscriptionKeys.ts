/**
 * Subscription keys: `ksk_<prefix>_<secret>`. The prefix (12 hex digits) is
 * public and finds the stored record; the whole key is stored only as its
 * SHA-256 and compared in constant time.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"

const KEY_FORM = /^ksk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/

/** A subscription key just made: the key to hand to the partner once, and the prefix and hash the partner store keeps. */
export interface NewSubscriptionKey {
  /** The key to hand to the partner — shown once, never stored. */
  readonly key: string
  readonly key_prefix: string
  readonly key_hash: string
}

/** The SHA-256 of a subscription key, in hex: what the partner store keeps in its stead. */
export const hashOf = (key: string): string => createHash("sha256").update(key).digest("hex")

/** A fresh random key with its prefix and hash. */
export const generateSubscriptionKey = (): NewSubscriptionKey => {
  const key = `ksk_${randomBytes(6).toString("hex")}_${randomBytes(32).toString("base64url")}`
  return { key, key_prefix: key.slice(4, 16), key_hash: hashOf(key) }
}

/** The prefix of a well-formed key, or undefined. */
export const prefixOf = (key: string): string | undefined => KEY_FORM.exec(key)?.[1]

/** True when the key's hash equals the stored one, compared in constant time. */
export const matchesStoredHash = (key: string, storedHash: string): boolean => {
  const given = Buffer.from(hashOf(key), "hex")
  const stored = Buffer.from(storedHash, "hex")
  return given.length === stored.length && timingSafeEqual(given, stored)
}
