/**
 * The client's preferences (RFC 7240 `Prefer`): whether it asks for the resource's representation
 * (`return=representation`) where the answer is otherwise minimal.
 */

/** The answer header saying which preference was honoured (RFC 7240 §3). */
export const REPRESENTATION_APPLIED = { "Preference-Applied": "return=representation" } as const

/**
 * Whether `Prefer` asks for `return=representation`. Preference names are case-insensitive, a value may be quoted,
 * parameters after `;` are ignored, and of a preference given twice only the first counts (RFC 7240 §2).
 */
export const prefersRepresentation = (prefer: string | ReadonlyArray<string> | undefined): boolean => {
  if (prefer === undefined) return false
  const preferences = (typeof prefer === "string" ? [prefer] : prefer).flatMap((header) => header.split(","))
  for (const preference of preferences) {
    const [name = "", value = ""] = (preference.split(";")[0] ?? "").split("=", 2).map((part) => part.trim())
    if (name.toLowerCase() === "return") return value.replace(/^"(.*)"$/, "$1") === "representation"
  }
  return false
}
