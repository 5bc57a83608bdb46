/**
 * An answer Schema's encoder, made once per Schema: where encoding changes nothing but which properties are kept —
 * structs, records, arrays and leaves, whose every transformation passes the value through when encoding (the
 * quote's blank-as-absent strings) — a projection compiled from its AST, copying the Schema's properties in its
 * order as Effect's encoder does (a property present when `name in value`, an array read by index); Effect's own
 * encoder for any part that transforms (a class, a date, a union of structs, a record whose keys are checked or
 * encoded, a struct a property's transformation may add a key to or drop one from).
 *
 * The projection does not check the values again. An answer is made by the core from input its Schemas decoded
 * (and a retrieved quote is what one such answer stored), so its checks were met where the value was made. Checking
 * them again on the way out was most of an answer's writing: Effect's encoder took ~35 µs of a quote's retrieval
 * over JSON.stringify's ~12 µs, the projection ~10 µs (bench/versus.mjs: GET from 1.056 to 0.975 of 254cbde's
 * CPU per request). `AnswerEncoding.test.ts` holds it to Effect's encoding, byte for byte, as does the golden
 * record of the service's answers (test/golden).
 */
import { Schema, SchemaAST, SchemaGetter, SchemaTransformation } from "effect"

type Encode = (value: unknown) => unknown

/** What a leaf answers with: its value itself. */
const AS_IT_IS: Encode = (value) => value

const PASSTHROUGH = SchemaGetter.passthrough()

/** Whether encoding through the node's transformations gives back the value itself, ending in a leaf. */
const encodesAsItIs = (ast: SchemaAST.AST): boolean =>
  ast.encoding === undefined
    ? isLeaf(ast)
    : ast.encoding.every(
        (link) =>
          SchemaTransformation.isTransformation(link.transformation) && link.transformation.encode === PASSTHROUGH
      ) && encodesAsItIs(ast.encoding[ast.encoding.length - 1]!.to)

/** The nodes whose encoded form is the value itself when they have no transformation of their own. */
const isLeaf = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "Null":
    case "Literal":
    case "Enum":
    case "TemplateLiteral":
      return true
    case "Union":
      return ast.types.every(encodesAsItIs)
    default:
      return false
  }
}

/** Sets a property of a plain object, `__proto__` too (as Effect's encoder does), never the prototype. */
const assign = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

/** Effect's encoder of one node of a Schema, made when first used: for the parts the projection does not cover. */
const effectEncoderOf = (ast: SchemaAST.AST): Encode => {
  let encode: Encode | undefined
  return (value) => {
    encode ??= Schema.encodeUnknownSync(Schema.make<Schema.Codec<unknown, unknown>>(ast))
    return encode(value)
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Whether a struct's value has a property, as Effect's encoder asks it: inherited ones too, but not `__proto__`. */
const hasProperty = (value: Record<string, unknown>, name: string): boolean =>
  name === "__proto__" ? Object.hasOwn(value, name) : name in value

/**
 * A struct's or record's projection: its properties in the Schema's order, then a record's other keys. Left to
 * Effect: a record keyed by anything but every string (keys with a check, an encoding, a template, symbols), a
 * symbol-named property, and a struct with a property whose own transformation may add or drop its key.
 */
const objectsEncoder = (ast: SchemaAST.Objects): Encode | undefined => {
  if (
    ast.indexSignatures.some((index) => index.parameter !== SchemaAST.string) ||
    ast.propertySignatures.some(
      (property) =>
        typeof property.name === "symbol" || (property.type.encoding !== undefined && !encodesAsItIs(property.type))
    )
  )
    return undefined
  // Effect answers a struct of no fields with the value as it is
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) return AS_IT_IS
  const properties = ast.propertySignatures.map((property) => ({
    name: String(property.name),
    encode: compile(property.type)
  }))
  const declared = new Set(properties.map((property) => property.name))
  const values = ast.indexSignatures.map((index) => compile(index.type))
  const otherwise = effectEncoderOf(ast)
  return (value) => {
    if (!isRecord(value)) return otherwise(value)
    const out: Record<string, unknown> = {}
    for (const { name, encode } of properties) if (hasProperty(value, name)) assign(out, name, encode(value[name]))
    for (const encode of values)
      for (const key of Object.keys(value)) if (!declared.has(key)) assign(out, key, encode(value[key]))
    return out
  }
}

/** A tuple's or array's projection: its elements, then the rest by its first rest type. */
const arraysEncoder = (ast: SchemaAST.Arrays): Encode | undefined => {
  // a rest of several types (a tuple's tail after a spread) is left to Effect
  if (ast.rest.length > 1) return undefined
  const elements = ast.elements.map(compile)
  const rest = ast.rest.length === 0 ? undefined : compile(ast.rest[0]!)
  const otherwise = effectEncoderOf(ast)
  return (value) => {
    if (!Array.isArray(value)) return otherwise(value)
    // by index, as Effect's encoder reads an array: not through the value's own `map`
    const out = new Array<unknown>(value.length)
    for (let index = 0; index < value.length; index++)
      out[index] = (index < elements.length ? elements[index]! : (rest ?? AS_IT_IS))(value[index])
    return out
  }
}

/** The encoder of a node: its value itself, a projection, or Effect's. */
const compile = (ast: SchemaAST.AST): Encode => {
  if (encodesAsItIs(ast)) return AS_IT_IS
  if (ast.encoding === undefined) {
    const projection =
      ast._tag === "Objects" ? objectsEncoder(ast) : ast._tag === "Arrays" ? arraysEncoder(ast) : undefined
    if (projection !== undefined) return projection
  }
  return effectEncoderOf(ast)
}

const encoders = new WeakMap<Schema.Top, Encode>()

/** The encoder of an answer Schema, compiled the first time it is asked for. */
export const answerEncoderOf = (schema: Schema.Top): Encode => {
  let encode = encoders.get(schema)
  if (encode === undefined) {
    encode = compile(schema.ast)
    encoders.set(schema, encode)
  }
  return encode
}
