/**
 * Subscription keys: only their hash is stored, a key is found by its prefix
 * and matched against that hash, and no other key matches it.
 */
import { describe, expect, it } from "vitest"
import { generateSubscriptionKey, hashOf, matchesStoredHash, prefixOf } from "../src/SubscriptionKeys.js"

describe("a subscription key", () => {
  it("is stored as its hash, found by its prefix, and matches only itself", () => {
    const issued = generateSubscriptionKey()
    expect(issued.key_hash).toBe(hashOf(issued.key))
    expect(issued.key_hash).not.toContain(issued.key)
    expect(prefixOf(issued.key)).toBe(issued.key_prefix)
    expect(matchesStoredHash(issued.key, issued.key_hash)).toBe(true)
    const other = generateSubscriptionKey()
    expect(other.key).not.toBe(issued.key)
    expect(matchesStoredHash(other.key, issued.key_hash)).toBe(false)
    const lastCharacter = issued.key.at(-1) === "A" ? "B" : "A"
    expect(matchesStoredHash(`${issued.key.slice(0, -1)}${lastCharacter}`, issued.key_hash)).toBe(false)
  })

  it("has no prefix when it is not of the issued form", () => {
    expect(prefixOf("")).toBeUndefined()
    expect(prefixOf("not a key")).toBeUndefined()
    expect(prefixOf("ksk_0123456789ab_short")).toBeUndefined()
  })
})
