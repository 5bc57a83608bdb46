/**
 * Schema-aware completion for tariff JSON: at the cursor, the property names
 * and values the tariff's own Schema (`Tariff.Tariff`, the one the engine
 * decodes with) allows there. The Schema is walked on its encoded side — the
 * JSON an actuary writes — and union members are told apart by the plain
 * values already written beside the cursor (`"type": "add_coverage"` selects
 * that instruction's `params`).
 */
import type { SyntaxNode, Tree } from "@lezer/common"
import { SchemaAST } from "effect"
import {
  arrayElements,
  objectProperties,
  pathOf,
  propertyName,
  propertyValue,
  topValue,
  writtenProperties,
  type JsonPath,
  type JsonPrimitive,
  type WrittenProperties
} from "./JsonSyntax.js"

export interface CompletionOption {
  readonly label: string
  /** The text that replaces the range. */
  readonly apply: string
  /** What the Schema allows there, e.g. `integer` or `"fixed" | "vehicle_price_bands"`. */
  readonly detail: string
  readonly type: "property" | "enum" | "keyword"
}

export interface Completion {
  readonly from: number
  readonly to: number
  readonly options: ReadonlyArray<CompletionOption>
}

/** Unions and recursion opened up to the shapes an actual value can have, on the encoded side. */
const shapesOf = (ast: SchemaAST.AST, seen: Set<SchemaAST.AST> = new Set()): Array<SchemaAST.AST> => {
  // memoized, and the identity on an AST already encoded
  const encoded = SchemaAST.toEncoded(ast)
  if (seen.has(encoded)) return []
  seen.add(encoded)
  switch (encoded._tag) {
    case "Union":
      return encoded.types.flatMap((member) => shapesOf(member, seen))
    case "Suspend":
      return shapesOf(encoded.thunk(), seen)
    default:
      return [encoded]
  }
}

/** The one value a shape allows, if it allows only one (`null` is a node of its own). */
const literalOf = (shape: SchemaAST.AST): { readonly value: SchemaAST.LiteralValue | null } | undefined => {
  if (shape._tag === "Literal") return { value: shape.literal }
  if (shape._tag === "Null") return { value: null }
  return undefined
}

/**
 * The shapes worth offering: not those marked deprecated (a fact's former name), which the Schema still reads
 * but an actuary should no longer write.
 */
const offeredShapesOf = (ast: SchemaAST.AST): Array<SchemaAST.AST> =>
  shapesOf(ast).filter((shape) => shape.annotations?.["deprecated"] !== true)

const literalsOf = (ast: SchemaAST.AST): Array<SchemaAST.LiteralValue | null> =>
  offeredShapesOf(ast).flatMap((shape) => {
    const literal = literalOf(shape)
    return literal === undefined ? [] : [literal.value]
  })

/** Whether a plain value written in the document is one of the shapes. */
const primitiveFits = (value: JsonPrimitive, shapes: ReadonlyArray<SchemaAST.AST>): boolean =>
  shapes.some((shape) => {
    switch (shape._tag) {
      case "Literal":
        return shape.literal === value
      case "Null":
        return value === null
      case "String":
        return typeof value === "string"
      case "Number":
        return typeof value === "number"
      case "Boolean":
        return typeof value === "boolean"
      case "Objects":
      case "Arrays":
        return false
      default:
        return true
    }
  })

/** Whether an object or array written in the document is one of the shapes. */
const containerFits = (container: "Object" | "Array", shapes: ReadonlyArray<SchemaAST.AST>): boolean =>
  shapes.some((shape) => {
    switch (shape._tag) {
      case "Objects":
        return container === "Object"
      case "Arrays":
        return container === "Array"
      case "Literal":
      case "Null":
      case "String":
      case "Number":
      case "Boolean":
        return false
      default:
        return true
    }
  })

/**
 * Keeps the object shapes that fit what the document's object already says:
 * they declare every property written (tariffs refuse unknown properties) and
 * allow the values written (a literal, a string, an object, a list…).
 */
const agreeing = (shapes: ReadonlyArray<SchemaAST.AST>, written: WrittenProperties): Array<SchemaAST.AST> => {
  const fits = shapes.filter((shape) => {
    if (shape._tag !== "Objects") return false
    const declared = new Set(shape.propertySignatures.map((signature) => String(signature.name)))
    if (shape.indexSignatures.length === 0 && [...written.names].some((name) => !declared.has(name))) return false
    return shape.propertySignatures.every((signature) => {
      const name = String(signature.name)
      if (name in written.primitives) return primitiveFits(written.primitives[name]!, shapesOf(signature.type))
      if (name in written.containers) return containerFits(written.containers[name]!, shapesOf(signature.type))
      return true
    })
  })
  return fits.length === 0 ? [...shapes] : fits
}

/** The shapes the Schema allows at a path of the document (`editingAt`: where a property name is being typed). */
export const shapesAt = (
  root: SchemaAST.AST,
  tree: Tree,
  doc: string,
  path: JsonPath,
  editingAt?: number
): Array<SchemaAST.AST> => {
  let shapes = shapesOf(root)
  let node = topValue(tree)
  for (const step of path) {
    if (node?.name === "Object") shapes = agreeing(shapes, writtenProperties(node, doc))
    shapes = shapes.flatMap((shape): Array<SchemaAST.AST> => {
      if (shape._tag === "Objects" && typeof step === "string") {
        const signature = shape.propertySignatures.find((candidate) => candidate.name === step)
        if (signature !== undefined) return shapesOf(signature.type)
        return shape.indexSignatures.flatMap((index) => shapesOf(index.type))
      }
      if (shape._tag === "Arrays" && typeof step === "number") {
        const element = shape.elements[step] ?? shape.rest[0]
        return element === undefined ? [] : shapesOf(element)
      }
      return []
    })
    node = childValue(node, doc, step)
  }
  if (node?.name === "Object") shapes = agreeing(shapes, writtenProperties(node, doc, editingAt))
  return shapes
}

/** The value of the document at one step below a node (null where the document has none yet). */
const childValue = (node: SyntaxNode | null, doc: string, step: string | number): SyntaxNode | null => {
  if (node?.name === "Object" && typeof step === "string") {
    const property = objectProperties(node).find((candidate) => propertyName(candidate, doc) === step)
    return property === undefined ? null : propertyValue(property)
  }
  if (node?.name === "Array" && typeof step === "number") return arrayElements(node)[step] ?? null
  return null
}

/** A short description of what a Schema allows, for the completion's detail. */
export const describeShape = (ast: SchemaAST.AST): string => {
  const shapes = offeredShapesOf(ast)
  const literals = literalsOf(ast)
  if (literals.length === shapes.length && literals.length > 0)
    return literals.map((literal) => JSON.stringify(literal)).join(" | ")
  const names = shapes.map((shape) => {
    switch (shape._tag) {
      case "String":
        return "string"
      case "Number":
        return "number"
      case "Boolean":
        return "boolean"
      case "Objects":
        return "object"
      case "Arrays":
        return "array"
      case "Literal":
        return JSON.stringify(shape.literal)
      case "Null":
        return "null"
      default:
        return shape._tag
    }
  })
  return [...new Set(names)].join(" | ")
}

const propertyOptions = (
  shapes: ReadonlyArray<SchemaAST.AST>,
  present: ReadonlySet<string>,
  withColon: boolean
): Array<CompletionOption> => {
  // a name several union members declare gets every description it has in them
  const signatures = new Map<string, Array<SchemaAST.PropertySignature>>()
  for (const shape of shapes) {
    if (shape._tag !== "Objects") continue
    for (const signature of shape.propertySignatures) {
      const name = String(signature.name)
      if (!present.has(name)) signatures.set(name, [...(signatures.get(name) ?? []), signature])
    }
  }
  // labelled as written, quotes and all, so that what is typed (`"ty`) filters them
  return [...signatures].map(([name, declared]) => ({
    label: JSON.stringify(name),
    apply: `${JSON.stringify(name)}${withColon ? ": " : ""}`,
    detail: `${declared.every((signature) => SchemaAST.isOptional(signature.type)) ? "optional " : ""}${[...new Set(declared.map((signature) => describeShape(signature.type)))].join(" | ")}`,
    type: "property"
  }))
}

const valueOptions = (shapes: ReadonlyArray<SchemaAST.AST>): Array<CompletionOption> => {
  const options = new Map<string, CompletionOption>()
  for (const shape of shapes) {
    if (shape.annotations?.["deprecated"] === true) continue
    const literal = literalOf(shape)
    if (literal !== undefined) {
      const text = JSON.stringify(literal.value)
      options.set(text, { label: text, apply: text, detail: "allowed value", type: "enum" })
    }
    if (shape._tag === "Boolean") {
      for (const text of ["true", "false"])
        options.set(text, { label: text, apply: text, detail: "boolean", type: "keyword" })
    }
  }
  return [...options.values()]
}

const VALUE_TOKENS = new Set(["String", "Number", "True", "False", "Null", "⚠"])

/** What may be written at `position` of the document, per the Schema; undefined where nothing is known. */
export const completionAt = (
  root: SchemaAST.AST,
  tree: Tree,
  doc: string,
  position: number
): Completion | undefined => {
  const node = tree.resolveInner(position, -1)
  const parent = node.parent
  // a property name being written: complete or not yet (an error token inside an object)
  if (node.name === "PropertyName" || (node.name === "⚠" && parent?.name === "Object")) {
    const object = node.name === "PropertyName" ? node.parent!.parent! : parent!
    return keyCompletion(
      root,
      tree,
      doc,
      object,
      node.from,
      node.to,
      node.name === "⚠" || node.parent!.getChild(":") === null
    )
  }
  if (node.name === "Object" || ((node.name === "{" || node.name === ",") && parent?.name === "Object")) {
    const object = node.name === "Object" ? node : parent!
    return keyCompletion(root, tree, doc, object, position, position, true)
  }
  // a value being written after a property's colon
  if (parent?.name === "Property" && (VALUE_TOKENS.has(node.name) || node.name === ":")) {
    const replacing = node.name !== ":"
    const path = [...pathOf(parent, doc), propertyName(parent, doc) ?? ""]
    return {
      from: replacing ? node.from : position,
      to: replacing ? node.to : position,
      options: valueOptions(shapesAt(root, tree, doc, path))
    }
  }
  if (node.name === "Property" && node.getChild(":") !== null && position >= node.getChild(":")!.to) {
    const path = [...pathOf(node, doc), propertyName(node, doc) ?? ""]
    return { from: position, to: position, options: valueOptions(shapesAt(root, tree, doc, path)) }
  }
  // an element of an array
  if (parent?.name === "Array" && VALUE_TOKENS.has(node.name)) {
    return { from: node.from, to: node.to, options: valueOptions(shapesAt(root, tree, doc, pathOf(node, doc))) }
  }
  if (node.name === "Array" || ((node.name === "[" || node.name === ",") && parent?.name === "Array")) {
    const array = node.name === "Array" ? node : parent!
    const index = arrayIndexAt(array, position)
    return {
      from: position,
      to: position,
      options: valueOptions(shapesAt(root, tree, doc, [...pathOf(array, doc), index]))
    }
  }
  return undefined
}

const arrayIndexAt = (array: SyntaxNode, position: number): number => {
  let index = 0
  for (let child = array.firstChild; child !== null && child.from < position; child = child.nextSibling)
    if (child.name === ",") index++
  return index
}

const keyCompletion = (
  root: SchemaAST.AST,
  tree: Tree,
  doc: string,
  object: SyntaxNode,
  from: number,
  to: number,
  withColon: boolean
): Completion => {
  const present = new Set(
    objectProperties(object)
      .filter((property) => property.getChild("PropertyName")?.from !== from)
      .flatMap((property) => {
        const name = propertyName(property, doc)
        return name === undefined ? [] : [name]
      })
  )
  return {
    from,
    to,
    options: propertyOptions(shapesAt(root, tree, doc, pathOf(object, doc), from), present, withColon)
  }
}
