/**
 * A tool's JSON Schemas, generated from the core's Effect Schemas: draft 2020-12 as Effect writes it, with excess
 * properties refused as the decoders refuse them. Each stands alone — its definitions inlined, for clients that
 * resolve no `$ref` — and carries no `$schema`: MCP reads a schema without one as 2020-12, and none of the keywords
 * used reads otherwise under draft-07 (the SDK client's validator).
 */
import { Schema } from "effect"

/** A JSON object: a schema, or structured content. */
export type JsonObject = { [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const DEFINITION_PREFIX = "#/$defs/"

/** The JSON Schema of what `schema` encodes (a tool's arguments, or its structured content), standing alone. */
export const jsonSchemaOf = (schema: Schema.Top): JsonObject => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  const definitions: JsonObject = document.definitions ?? {}
  const inline = (node: unknown, expanding: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, expanding))
    if (!isObject(node)) return node
    const reference = node["$ref"]
    if (typeof reference === "string" && reference.startsWith(DEFINITION_PREFIX)) {
      const name = reference.slice(DEFINITION_PREFIX.length)
      // no schema of a request or answer refers to itself; one that did could not stand alone
      if (expanding.has(name)) throw new Error(`${name} refers to itself: a tool's schema cannot inline it`)
      return inline(definitions[name], new Set([...expanding, name]))
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, expanding)]))
  }
  const inlined = withoutOpenProperties(inline(document.schema, new Set()))
  if (!isObject(inlined) || inlined["type"] !== "object")
    throw new Error("a tool's arguments and structured content are JSON objects")
  return inlined
}

const isOpen = (schema: unknown) => isObject(schema) && Object.keys(schema).length === 0

/**
 * The schema without the properties it takes as anything (`{}`): an offer request's `policy` and `agent`, which an
 * offer accepts and ignores (so that one body serves both endpoints). A model reading the schema is not asked to
 * fill them; the decoder still takes them.
 */
const withoutOpenProperties = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutOpenProperties)
  if (!isObject(node)) return node
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) =>
      key === "properties" && isObject(value)
        ? [
            key,
            Object.fromEntries(
              Object.entries(value).flatMap(([name, schema]) =>
                isOpen(schema) ? [] : [[name, withoutOpenProperties(schema)]]
              )
            )
          ]
        : [key, withoutOpenProperties(value)]
    )
  )
}

/**
 * The JSON Schema of an answer that is one of several objects (a quote awaiting activation, or activated): an
 * object, any one of them.
 */
export const jsonSchemaOfEither = (schemas: ReadonlyArray<Schema.Top>): JsonObject => ({
  type: "object",
  anyOf: schemas.map(jsonSchemaOf)
})

/** The `environment` a sandbox key's structured content carries, as its JSON Schema property. */
const SANDBOX_ENVIRONMENT: JsonObject = {
  type: "string",
  enum: ["sandbox"],
  description: "Present only in the answers to a sandbox key: the answer is the sandbox's, never production's"
}

/**
 * An output schema as a sandbox key's session lists it: each object it allows may carry `environment` (its
 * properties are otherwise closed), as the REST API's OpenAPI document says of a sandbox key's answers.
 */
export const withSandboxEnvironment = (schema: JsonObject): JsonObject => {
  const anyOf = schema["anyOf"]
  if (Array.isArray(anyOf)) return { ...schema, anyOf: anyOf.map((each) => withSandboxEnvironment(each as JsonObject)) }
  return {
    ...schema,
    properties: { ...(schema["properties"] as JsonObject | undefined), environment: SANDBOX_ENVIRONMENT }
  }
}
