/**
 * The JSON Schema of a Schema, for the OpenAPI and AsyncAPI documents. Effect
 * writes draft 2020-12; the documents keep the form and the layout they have
 * always had, so that they change only when an API does: a non-empty array
 * says `minItems` rather than repeating its first item as a tuple's, a check
 * Effect could not merge stands among the others, and each object lists
 * `type`, `required`, `properties`, its other keywords, then its description.
 */
import { type Schema, SchemaRepresentation } from "effect"

export type JsonObject = { [key: string]: unknown }

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// keywords whose value is a map of schemas, a list of schemas, or one schema; everything else is data
const SCHEMA_MAPS = new Set(["properties", "patternProperties"])
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf"])
const SCHEMA_VALUES = new Set(["items", "additionalProperties", "not"])

/**
 * The value of keyword `key` with every schema in it rewritten by `rewrite`, or undefined when the keyword
 * holds data rather than schemas: how both documents walk into subschemas.
 */
export const subschemasRewritten = (
  key: string,
  value: unknown,
  rewrite: (schema: unknown) => unknown
): { readonly rewritten: unknown } | undefined => {
  if (SCHEMA_MAPS.has(key) && isObject(value))
    return { rewritten: Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, rewrite(schema)])) }
  if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return { rewritten: value.map(rewrite) }
  if (SCHEMA_VALUES.has(key)) return { rewritten: rewrite(value) }
  return undefined
}

/**
 * The schema's JSON Schema (its definitions are the schemas with identifiers).
 * From its representation rather than through `Schema.toJsonSchemaDocument`,
 * whose JSON codec drops the descriptions of `Unknown` members (the offer's
 * ignored `policy` and `agent`); members the schema does not name are refused.
 */
export const jsonSchemaOf = (schema: Schema.Top) =>
  SchemaRepresentation.toJsonSchemaDocument(SchemaRepresentation.toRepresentation(schema.ast), {
    onExcessProperty: "error"
  })

const isSame = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right)

/**
 * One schema object in the documents' words, its subschemas untouched: a
 * non-empty array's first element, written as a tuple's, goes (`items` and
 * `minItems` say it), and a check Effect appended as `allOf: [check]` joins
 * the schema's keywords when none collides.
 */
export const tidy = (node: JsonObject): JsonObject => {
  const { allOf, prefixItems, ...rest } = node
  const repeatsItems = Array.isArray(prefixItems) && prefixItems.every((item) => isSame(item, node["items"]))
  const tidied = { ...rest, ...(prefixItems === undefined || repeatsItems ? {} : { prefixItems }) }
  if (allOf === undefined) return tidied
  const [check, ...others] = Array.isArray(allOf) ? allOf : []
  return others.length === 0 && isObject(check) && Object.keys(check).every((key) => !(key in tidied))
    ? { ...tidied, ...check }
    : { ...tidied, allOf }
}

/** Effect bounds an integer to the safe ones: a plain integer, which the documents never bounded. */
export const isPlainInteger = (node: JsonObject): boolean =>
  node["type"] === "integer" &&
  node["minimum"] === Number.MIN_SAFE_INTEGER &&
  node["maximum"] === Number.MAX_SAFE_INTEGER

/**
 * The documents' layout of a schema object: `type`, then an object's
 * `required` (even empty, where `emptyRequired` says so) and `properties` (a
 * map's `{}` too), then its other keywords as Effect wrote them; its
 * description last, or after an array's `items`.
 */
export const layout = (schema: JsonObject, emptyRequired: boolean): JsonObject => {
  const { type, required, properties, description, ...others } = schema
  const isObjectType = type === "object"
  const described = description === undefined ? {} : { description }
  const ordered: JsonObject = {
    ...(type === undefined ? {} : { type }),
    ...(required === undefined ? (isObjectType && emptyRequired ? { required: [] } : {}) : { required }),
    ...(properties === undefined ? (isObjectType ? { properties: {} } : {}) : { properties })
  }
  for (const [key, value] of Object.entries(others)) {
    ordered[key] = value
    if (key === "items" && type === "array") Object.assign(ordered, described)
  }
  return { ...ordered, ...described }
}
