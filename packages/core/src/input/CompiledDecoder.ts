/**
 * A request Schema's decoding compiled once into plain functions, for input
 * the Schema accepts as it is — nearly every request. Effect's own parser is
 * general (every step an Effect, every key checked for issues to collect);
 * this walk does only what an accepted request needs.
 *
 * It walks the input once and, on the way, does what `decodeAll` asks of every
 * request: strings NFC-normalised and refused when they carry control
 * characters, unknown fields refused. Its rules are the Schema's own — the
 * same checks, the same transformations, read from the AST — and anything it
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
import { Exit, Option, type Schema, SchemaAST as AST } from "effect"
import { cleanText, isPlainText, textProblem } from "./RequestText.js"

/** What a decoder answers for input it does not accept as it is. */
export const REFUSED: unique symbol = Symbol.for("kasko/CompiledDecoder/REFUSED")
export type Refused = typeof REFUSED

/** Decodes input the Schema accepts as is, or answers REFUSED. */
export type Decoder<A> = (input: unknown) => A | Refused

type Step = (input: unknown) => unknown

// an absent key, as the Schema's parser carries it along an encoding chain (a transformation may supply a value)
const MISSING: unique symbol = Symbol("kasko/CompiledDecoder/MISSING")

// the options the Schema runs with in `decodeAll`; checks receive them as they would there
const PARSE_OPTIONS: AST.ParseOptions = { errors: "all", onExcessProperty: "error" }
const refuse: Step = () => REFUSED

const compiled = new WeakMap<AST.AST, Step>()
const decoders = new WeakMap<AST.AST, Step>()

/** The compiled decoder of `schema`, built on first use and kept with its AST. */
export const decoderOf = <A>(schema: Schema.Decoder<A>): Decoder<A> => {
  let decoder = decoders.get(schema.ast)
  if (decoder === undefined) {
    const step = compile(schema.ast)
    // what the Schema would take for absent (only a transformation of a missing key makes it) is the Schema's to answer
    decoder = (input) => {
      const decoded = step(input)
      return decoded === MISSING ? REFUSED : decoded
    }
    decoders.set(schema.ast, decoder)
  }
  return decoder as Decoder<A>
}

/**
 * The step of a node: its encoding chain (the most encoded side first), then
 * the node itself and its checks. A node with an encoding chain also takes
 * MISSING, as the Schema's parser does; other steps take present values only.
 */
const compile = (ast: AST.AST): Step => {
  const known = compiled.get(ast)
  if (known !== undefined) return known
  // a recursive schema reaches itself through Suspend: the placeholder forwards to the finished step
  let finished: Step = refuse
  compiled.set(ast, (input) => finished(input))
  finished = ast.encoding === undefined ? checked(ast) : encoded(ast, ast.encoding)
  compiled.set(ast, finished)
  return finished
}

/** The step of a node that may receive MISSING: an absent key stays absent through a node without an encoding. */
const compileTakingMissing = (ast: AST.AST): Step => {
  const step = compile(ast)
  return ast.encoding !== undefined ? step : (input) => (input === MISSING ? MISSING : step(input))
}

/** As the Schema decodes along a chain: parse the last link's side, transform, parse the next side… then the node itself. */
const encoded = (ast: AST.AST, links: AST.Encoding): Step => {
  const last = links.length - 1
  const sides = links.map((link) => compileTakingMissing(link.to))
  const transforms = links.map((link) => decodingOf(link.transformation))
  const self = checked(ast)
  return (input) => {
    let value = sides[last]!(input)
    for (let index = last; index >= 0; index--) {
      if (value === REFUSED) return REFUSED
      value = transforms[index]!(value)
      if (index > 0 && value !== REFUSED) value = sides[index - 1]!(value)
    }
    return value === REFUSED || value === MISSING ? value : self(value)
  }
}

/** What a transformation's decoding getter makes of a value (or MISSING). */
const decodingOf = (transformation: AST.Link["transformation"]): Step => {
  // middleware wraps the whole parse in an Effect: the Schema's to run
  if (transformation._tag === "Middleware") return refuse
  const getter = transformation.decode
  switch (getter._tag) {
    case "Passthrough":
      return (value) => value
    case "Transform":
      return (value) => (value === MISSING ? MISSING : getter.transform(value))
    case "TransformOptional":
      return (value) => {
        const decoded = getter.transform(value === MISSING ? Option.none() : Option.some(value))
        return Option.isSome(decoded) ? decoded.value : MISSING
      }
    case "TransformEffect":
      return (value) => {
        if (value === MISSING) return MISSING
        // an Effect that has already succeeded is a value; anything else (failure, asynchrony, services) is the Schema's
        const decoded = getter.transform(value, PARSE_OPTIONS)
        return Exit.isExit(decoded) && Exit.isSuccess(decoded) ? decoded.value : REFUSED
      }
    case "TransformOptionalEffect":
      return (value) => {
        const decoded = getter.transform(value === MISSING ? Option.none() : Option.some(value), PARSE_OPTIONS)
        if (!Exit.isExit(decoded) || !Exit.isSuccess(decoded)) return REFUSED
        const option = decoded.value
        return Option.isOption(option) && Option.isSome(option) ? option.value : MISSING
      }
  }
}

/** The node's own step followed by its checks, each of which must hold. */
const checked = (ast: AST.AST): Step => {
  const own = ownStep(ast)
  const checks = ast.checks
  if (checks === undefined) return own
  return (input) => {
    const decoded = own(input)
    return decoded !== REFUSED && holds(checks, decoded, ast) ? decoded : REFUSED
  }
}

const holds = (checks: ReadonlyArray<AST.Check<unknown>>, value: unknown, ast: AST.AST): boolean => {
  for (const check of checks) {
    if (
      check._tag === "FilterGroup"
        ? !holds(check.checks, value, ast)
        : check.run(value, ast, PARSE_OPTIONS) !== undefined
    )
      return false
  }
  return true
}

/** The step of the node itself, without its encoding and checks. */
const ownStep = (ast: AST.AST): Step => {
  // checks a container runs on what it was sent (they come from flipped schemas): the Schema's
  if ("encodingChecks" in ast && ast.encodingChecks !== undefined) return refuse
  switch (ast._tag) {
    case "String":
      return text
    case "Number":
      return (input) => (typeof input === "number" ? input : REFUSED)
    case "Boolean":
      return (input) => (typeof input === "boolean" ? input : REFUSED)
    case "Null":
      return (input) => (input === null ? input : REFUSED)
    case "Undefined":
      return (input) => (input === undefined ? input : REFUSED)
    case "Unknown":
    case "Any":
      return unknownValue
    case "Literal": {
      const literal = ast.literal
      return (input) => (input === literal ? input : REFUSED)
    }
    case "Union":
      return union(ast)
    case "Objects":
      return objects(ast)
    case "Arrays":
      return arrays(ast)
    case "Suspend": {
      let step: Step | undefined
      return (input) => {
        step ??= compile(ast.thunk())
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

const isPlainLiteral = (ast: AST.AST): ast is AST.Literal =>
  AST.isLiteral(ast) && ast.checks === undefined && ast.encoding === undefined

const union = (ast: AST.Union): Step => {
  // "oneOf" unions fail when two members decode: the Schema's
  if (ast.options?.mode === "oneOf") return refuse
  if (ast.types.every(isPlainLiteral)) {
    const values = new Set(ast.types.map((member) => (member as AST.Literal).literal))
    return (input) => (values.has(input as AST.LiteralValue) ? input : REFUSED)
  }
  // the Schema takes the first member that decodes, in declaration order
  const members = ast.types.map(compile)
  return (input) => {
    for (const member of members) {
      const decoded = member(input)
      if (decoded === MISSING) return REFUSED
      if (decoded !== REFUSED) return decoded
    }
    return REFUSED
  }
}

const isJsonObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

/** An index signature over all string keys (a record), the only kind this walk takes. */
const isStringKeys = (signature: AST.IndexSignature): boolean =>
  signature.parameter._tag === "String" &&
  signature.parameter.checks === undefined &&
  signature.parameter.encoding === undefined

const objects = (ast: AST.Objects): Step => {
  if (
    ast.indexSignatures.length > 1 ||
    !ast.indexSignatures.every(isStringKeys) ||
    ast.propertySignatures.some((signature) => typeof signature.name !== "string")
  )
    return refuse
  // the Schema's empty struct takes anything but null and undefined: not a request's shape
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) return refuse
  const rest = ast.indexSignatures.length === 1 ? compile(ast.indexSignatures[0]!.type) : undefined
  const names = ast.propertySignatures.map((signature) => signature.name as string)
  const optional = ast.propertySignatures.map((signature) => AST.isOptional(signature.type))
  const decoders = ast.propertySignatures.map((signature) => compile(signature.type))
  // an absent key is MISSING to a property with an encoding chain (which may supply a value), and stays absent otherwise
  const takesMissing = ast.propertySignatures.map((signature) => signature.type.encoding !== undefined)
  const known = new Set<string>(names)
  const count = names.length
  return (input) => {
    if (!isJsonObject(input)) return REFUSED
    if (rest === undefined) {
      // a key the Schema would call unknown
      for (const key in input) if (!known.has(key)) return REFUSED
    }
    const output: Record<string, unknown> = {}
    for (let index = 0; index < count; index++) {
      const name = names[index]!
      const value = input[name]
      const present = value !== undefined || name in input
      const decoded = present ? decoders[index]!(value) : takesMissing[index] ? decoders[index]!(MISSING) : MISSING
      if (decoded === REFUSED) return REFUSED
      if (decoded === MISSING) {
        if (optional[index]) continue
        return REFUSED
      }
      output[name] = decoded
    }
    if (rest === undefined) return output
    for (const key of Object.keys(input)) {
      // a record's key the Schema would normalise first, or one that would set the prototype: the Schema's
      if (!isPlainText(key) || key === "__proto__") return REFUSED
      // the Schema checks a property's value against the record's too, and keeps the property's
      const decoded = rest(input[key])
      if (decoded === REFUSED || decoded === MISSING) return REFUSED
      if (!known.has(key)) output[key] = decoded
    }
    return output
  }
}

const arrays = (ast: AST.Arrays): Step => {
  // arrays (one rest type) and fixed tuples without optional elements; other shapes are the Schema's
  if (ast.rest.length > 1 || ast.elements.some(AST.isOptional)) return refuse
  const elements = ast.elements.map(compile)
  const rest = ast.rest.length === 1 ? compile(ast.rest[0]!) : undefined
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
      if (decoded === REFUSED || decoded === MISSING) return REFUSED
      output[index] = decoded
    }
    return output
  }
}
