/**
 * A request Schema's decoding compiled once into plain functions, for input
 * the Schema accepts as it is — nearly every request. Effect's own parser is
 * general (every step an Either, every struct key checked against a union of
 * literals) and spends ~100 µs on a quote request; this walk spends a few.
 *
 * It walks the input once and, on the way, does what `decodeAll` asks of every
 * request: strings NFC-normalised and refused when they carry control
 * characters, unknown fields refused. Its rules are the Schema's own — the
 * same filters, the same transformations, read from the AST — and anything it
 * does not accept (a violation, or a part of the AST it does not know) it
 * hands back as REFUSED: the caller then runs the Schema, whose answer (with
 * every violation named) is the one that counts. So this can only be faster,
 * never more lenient; `packages/core/test/CompiledDecoder.prop.test.ts`
 * checks it against the Schema on damaged requests.
 *
 * (Offers, priced in-process in an embedder's loops, keep their hand-written
 * acceptance in `ProductSelection.acceptSelection`: ~0.7 µs against this
 * walk's ~3 µs, whose keyed property reads and writes are megamorphic.)
 */
import { Either, Option, type ParseResult, type Schema, SchemaAST as AST } from "effect"
import { cleanText, isPlainText, textProblem } from "./RequestText.js"

/** What a decoder answers for input it does not accept as it is. */
export const REFUSED: unique symbol = Symbol.for("kasko/CompiledDecoder/REFUSED")
export type Refused = typeof REFUSED

/** Decodes input the Schema accepts as is, or answers REFUSED. */
export type Decoder<A> = (input: unknown) => A | Refused

type Step = (input: unknown) => unknown

// the options the Schema runs with in `decodeAll`; filters receive them as they would there
const PARSE_OPTIONS: AST.ParseOptions = { errors: "all", onExcessProperty: "error" }
const refuse: Step = () => REFUSED
const identity: Step = (input) => input

const compiled = new WeakMap<AST.AST, Step>()

/** The compiled decoder of `schema`, built on first use and kept with its AST. */
export const decoderOf = <A, I>(schema: Schema.Schema<A, I>): Decoder<A> => compile(schema.ast) as Decoder<A>

const compile = (ast: AST.AST): Step => {
  const known = compiled.get(ast)
  if (known !== undefined) return known
  // a recursive schema reaches itself through Suspend: the placeholder forwards to the finished step
  let finished: Step = refuse
  compiled.set(ast, (input) => finished(input))
  finished = build(ast)
  compiled.set(ast, finished)
  return finished
}

const build = (ast: AST.AST): Step => {
  switch (ast._tag) {
    case "StringKeyword":
      return text
    case "NumberKeyword":
      return (input) => (typeof input === "number" ? input : REFUSED)
    case "BooleanKeyword":
      return (input) => (typeof input === "boolean" ? input : REFUSED)
    case "UnknownKeyword":
      return unknownValue
    case "UndefinedKeyword":
      return (input) => (input === undefined ? input : REFUSED)
    case "Literal": {
      const literal = ast.literal
      return (input) => (input === literal ? input : REFUSED)
    }
    case "Union":
      return union(ast)
    case "Refinement":
      return refinement(ast)
    case "Transformation":
      return transformation(ast)
    case "TypeLiteral":
      return typeLiteral(ast)
    case "TupleType":
      return tuple(ast)
    case "Suspend": {
      let step: Step | undefined
      return (input) => {
        step ??= compile(ast.f())
        return step(input)
      }
    }
    default:
      // a kind no request schema uses (declarations, template literals, enums…): the Schema decides
      return refuse
  }
}

/** A string as `cleanText` leaves it: plain ASCII as is, other text NFC-normalised, hidden characters refused. */
const text: Step = (input) => {
  if (typeof input !== "string") return REFUSED
  if (isPlainText(input)) return input
  return textProblem(input) === undefined ? input.normalize("NFC") : REFUSED
}

/** A value the Schema takes as it comes (an offer's ignored `policy`): text hygiene is all there is to do. */
const unknownValue: Step = (input) => {
  const cleaned = cleanText(input)
  return cleaned.violations.length === 0 ? cleaned.input : REFUSED
}

const union = (ast: AST.Union): Step => {
  const literals = ast.types.filter(AST.isLiteral)
  if (literals.length === ast.types.length) {
    const values = new Set(literals.map((member) => member.literal))
    return (input) => (values.has(input as AST.LiteralValue) ? input : REFUSED)
  }
  // the Schema takes the first member that decodes, in declaration order
  const members = ast.types.map(compile)
  return (input) => {
    for (const member of members) {
      const decoded = member(input)
      if (decoded !== REFUSED) return decoded
    }
    return REFUSED
  }
}

const refinement = (ast: AST.Refinement): Step => {
  const from = compile(ast.from)
  return (input) => {
    const decoded = from(input)
    return decoded !== REFUSED && Option.isNone(ast.filter(decoded, PARSE_OPTIONS, ast)) ? decoded : REFUSED
  }
}

const transformation = (ast: AST.Transformation): Step => {
  const from = compile(ast.from)
  const to = compile(ast.to)
  const transform = transformationOf(ast)
  return (input) => {
    const decoded = from(input)
    if (decoded === REFUSED) return REFUSED
    const transformed = transform(decoded, input)
    return transformed === REFUSED ? REFUSED : to(transformed)
  }
}

const transformationOf = (ast: AST.Transformation): ((decoded: unknown, input: unknown) => unknown) => {
  const kind = ast.transformation
  switch (kind._tag) {
    case "ComposeTransformation":
      return identity
    case "FinalTransformation":
      return (decoded, input) => {
        // a transformation that answers with an Effect (asynchronous, or needing services) is the Schema's to run
        const result = kind.decode(decoded, PARSE_OPTIONS, ast, input) as
          | Either.Either<unknown, ParseResult.ParseIssue>
          | unknown
        return Either.isEither(result) && Either.isRight(result) ? result.right : REFUSED
      }
    case "TypeLiteralTransformation":
      // as the Schema does: each property's Option in, Option out, on the object the `from` side built
      return (decoded) => {
        const object = decoded as Record<PropertyKey, unknown>
        for (const property of kind.propertySignatureTransformations) {
          const sent = Object.hasOwn(object, property.from) ? Option.some(object[property.from]) : Option.none()
          delete object[property.from]
          const received = property.decode(sent)
          if (Option.isSome(received)) object[property.to] = received.value
        }
        return object
      }
  }
}

const isJsonObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

const typeLiteral = (ast: AST.TypeLiteral): Step => {
  // an index signature over plain strings (a record) accepts other keys; anything subtler is the Schema's
  if (
    ast.indexSignatures.some((signature) => signature.parameter._tag !== "StringKeyword") ||
    ast.indexSignatures.length > 1
  )
    return refuse
  const rest = ast.indexSignatures.length === 1 ? compile(ast.indexSignatures[0]!.type) : undefined
  const names = ast.propertySignatures.map((signature) => signature.name as string)
  const optional = ast.propertySignatures.map((signature) => signature.isOptional)
  const decoders = ast.propertySignatures.map((signature) => compile(signature.type))
  const known = new Set<string>(names)
  const count = names.length
  return (input) => {
    if (!isJsonObject(input)) return REFUSED
    const output: Record<string, unknown> = {}
    let sent = 0
    for (let index = 0; index < count; index++) {
      const name = names[index]!
      const value = input[name]
      if (value === undefined && !Object.hasOwn(input, name)) {
        if (optional[index]) continue
      } else sent++
      const decoded = decoders[index]!(value)
      if (decoded === REFUSED) return REFUSED
      output[name] = decoded
    }
    if (rest === undefined) {
      // every key was one of the properties, or there is one the Schema would call unknown
      let keys = 0
      for (const _ in input) keys++
      return keys === sent ? output : REFUSED
    }
    for (const key in input) {
      if (known.has(key)) continue
      // a record's key the Schema would normalise first, or one that would set the prototype: the Schema's
      if (!isPlainText(key) || key === "__proto__") return REFUSED
      const decoded = rest(input[key])
      if (decoded === REFUSED) return REFUSED
      output[key] = decoded
    }
    return output
  }
}

const tuple = (ast: AST.TupleType): Step => {
  // arrays (one rest type) and fixed tuples without optional elements; other shapes are the Schema's
  if (ast.rest.length > 1 || ast.elements.some((element) => element.isOptional)) return refuse
  const elements = ast.elements.map((element) => compile(element.type))
  const rest = ast.rest.length === 1 ? compile(ast.rest[0]!.type) : undefined
  return (input) => {
    if (
      !Array.isArray(input) ||
      input.length < elements.length ||
      (rest === undefined && input.length > elements.length)
    )
      return REFUSED
    const output = new Array<unknown>(input.length)
    for (let index = 0; index < input.length; index++) {
      const decoded = (index < elements.length ? elements[index]! : rest!)(input[index])
      if (decoded === REFUSED) return REFUSED
      output[index] = decoded
    }
    return output
  }
}
