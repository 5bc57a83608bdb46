/** Field paths as a client reads them in a violation. */

/** `["policy", "parties", 1, "organization"]` → `policy.parties[1].organization`. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((joined, key) => {
    if (typeof key === "number") return `${joined}[${key}]`
    const name = String(key)
    return joined === "" ? name : `${joined}.${name}`
  }, "")
