/**
 * The OpenAPI document's schemas: Effect writes JSON Schema draft 2020-12 (laid
 * out as the document always has, SchemaLayout); this module hoists the
 * operations' schemas into `components.schemas`, inlines the other
 * definitions, and rewrites the few keywords OpenAPI 3.0 spells differently.
 */
import { Schema, SchemaAST } from "effect"
import { OPEN_API_SCHEMA } from "./Operation.js"
import {
  isObject,
  isPlainInteger,
  type JsonObject,
  jsonSchemaOf,
  layout,
  subschemasRewritten,
  tidy
} from "./SchemaLayout.js"

const COMPONENT_PREFIX = "#/components/schemas/"
const DEFINITION_PREFIX = "#/$defs/"

/**
 * Rewrites one draft 2020-12 schema as an OpenAPI 3.0 schema object:
 * references to definitions are inlined, except where a definition refers to
 * itself, which becomes a component.
 */
class Converter {
  private readonly expanding = new Set<string>()

  constructor(
    private readonly definitions: JsonObject,
    private readonly components: Record<string, unknown>
  ) {}

  schema(node: unknown): unknown {
    if (!isObject(node)) return node
    const reference = node["$ref"]
    if (typeof reference === "string" && reference.startsWith(DEFINITION_PREFIX))
      return this.definition(reference.slice(DEFINITION_PREFIX.length))
    const result: JsonObject = {}
    for (const [key, value] of Object.entries(tidy(node))) {
      if (key === "$schema" || key === "$defs" || key === "$id" || key === "title") continue
      // OpenAPI 3.0 requires a non-empty `required`; JSON Schema allows []
      if (key === "required" && Array.isArray(value) && value.length === 0) continue
      // JSON numbers have no bounds of their own: an integer is only an integer
      if ((key === "minimum" || key === "maximum") && isPlainInteger(node)) continue
      const subschemas = subschemasRewritten(key, value, (schema) => this.schema(schema))
      if (subschemas !== undefined) result[key] = subschemas.rewritten
      else if (key === "const") result["enum"] = [value]
      else if (key === "examples" && Array.isArray(value)) result["example"] = value[0]
      else if (key === "exclusiveMinimum" && typeof value === "number") {
        result["minimum"] = value
        result["exclusiveMinimum"] = true
      } else if (key === "exclusiveMaximum" && typeof value === "number") {
        result["maximum"] = value
        result["exclusiveMaximum"] = true
      } else result[key] = value
    }
    return layout(nullableOf(result), false)
  }

  private definition(name: string): unknown {
    if (this.expanding.has(name) || name in this.components) {
      this.components[name] ??= {}
      return { $ref: `${COMPONENT_PREFIX}${name}` }
    }
    this.expanding.add(name)
    const inlined = this.schema(this.definitions[name] ?? {})
    this.expanding.delete(name)
    if (name in this.components) this.components[name] = inlined
    return inlined
  }
}

/** JSON Schema's `anyOf [X, {type: null}]` is OpenAPI 3.0's `nullable`. */
const nullableOf = (schema: JsonObject): JsonObject => {
  const anyOf = schema["anyOf"]
  if (!Array.isArray(anyOf) || !anyOf.some((member) => isObject(member) && member["type"] === "null")) return schema
  const others = anyOf.filter((member) => !(isObject(member) && member["type"] === "null"))
  const { anyOf: _anyOf, ...rest } = schema
  return { ...rest, ...(others.length === 1 ? (others[0] as JsonObject) : { anyOf: others }), nullable: true }
}

/** Collects the documented schemas under their identifiers into `components.schemas`. */
export class Components {
  readonly schemas: Record<string, unknown> = {}

  /**
   * Adds to the named object schemas the `environment` a sandbox key's answers carry beside their fields
   * (`Answers.ts` `sandboxJsonAnswer`); production's answers never have it.
   */
  markSandboxAnswers(names: Iterable<string>): void {
    for (const name of names) {
      const schema = this.schemas[name] as { type?: string; properties?: Record<string, unknown> } | undefined
      if (schema?.type !== "object") continue
      this.schemas[name] = {
        ...schema,
        properties: {
          ...schema.properties,
          environment: {
            type: "string",
            enum: ["sandbox"],
            description: "Present only in the answers to a sandbox key: the answer is the sandbox's, never production's"
          }
        }
      }
    }
  }

  /** A `$ref` to the schema, registered under its identifier. */
  reference(schema: Schema.Top, side: "request" | "response"): JsonObject {
    const name = identifierOf(schema)
    if (!(name in this.schemas)) {
      this.schemas[name] = {}
      this.schemas[name] =
        SchemaAST.resolveAt<JsonObject>(OPEN_API_SCHEMA)(schema.ast) ??
        this.converted(name, side === "request" ? Schema.toEncoded(schema) : Schema.toType(schema))
    }
    return { $ref: `${COMPONENT_PREFIX}${name}` }
  }

  private converted(name: string, documented: Schema.Top): unknown {
    const generated = jsonSchemaOf(documented)
    const definitions: JsonObject = { ...generated.definitions }
    const own = generated.schema["$ref"] === `${DEFINITION_PREFIX}${name}` ? definitions[name] : generated.schema
    return new Converter(definitions, this.schemas).schema(own)
  }
}

/**
 * OpenAPI 3.0's discriminator of a `oneOf` of components: each alternative's one value of `propertyName`, read
 * from the generated components, so the mapping cannot disagree with the schemas.
 */
export const discriminatorOf = (
  propertyName: string,
  references: ReadonlyArray<JsonObject>,
  schemas: Readonly<Record<string, unknown>>
): JsonObject => {
  const mapping: Record<string, string> = {}
  for (const reference of references) {
    const name = String(reference["$ref"]).slice(COMPONENT_PREFIX.length)
    const component = schemas[name]
    const property =
      isObject(component) && isObject(component["properties"]) ? component["properties"][propertyName] : undefined
    const values = isObject(property) ? property["enum"] : undefined
    const required = isObject(component) && Array.isArray(component["required"]) ? component["required"] : []
    if (
      !Array.isArray(values) ||
      values.length !== 1 ||
      typeof values[0] !== "string" ||
      !required.includes(propertyName)
    )
      throw new Error(`${name} must require ${propertyName} with one string value to be told apart by it`)
    mapping[values[0]] = String(reference["$ref"])
  }
  return { propertyName, mapping }
}

/** The name a schema is registered under in the document's components. */
export const identifierOf = (schema: Schema.Top): string => {
  const identifier = SchemaAST.resolveIdentifier(schema.ast)
  if (identifier === undefined) throw new Error("every documented schema needs an identifier annotation")
  return identifier
}
