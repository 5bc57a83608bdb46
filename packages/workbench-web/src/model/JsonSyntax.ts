/**
 * Finding one's way in a JSON document's syntax tree (Lezer's JSON grammar,
 * which CodeMirror's JSON language parses with): the path of a node, the node
 * at a path, and the plain values of an object's properties.
 */
import type { SyntaxNode, Tree } from "@lezer/common"

export type JsonPath = ReadonlyArray<string | number>

const VALUE_NODES = new Set(["Object", "Array", "String", "Number", "True", "False", "Null"])

/** The document's top value (its object), if any. */
export const topValue = (tree: Tree): SyntaxNode | null => {
  const text = tree.topNode
  for (let child = text.firstChild; child !== null; child = child.nextSibling)
    if (VALUE_NODES.has(child.name)) return child
  return null
}

/** The property's name, unquoted (undefined while it is not a complete string). */
export const propertyName = (property: SyntaxNode, doc: string): string | undefined => {
  const name = property.getChild("PropertyName")
  if (name === null) return undefined
  try {
    const parsed: unknown = JSON.parse(doc.slice(name.from, name.to))
    return typeof parsed === "string" ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The value of a property (null while it has none). */
export const propertyValue = (property: SyntaxNode): SyntaxNode | null => {
  const colon = property.getChild(":")
  for (let child = colon?.nextSibling ?? null; child !== null; child = child.nextSibling)
    if (VALUE_NODES.has(child.name)) return child
  return null
}

/** The elements of an array, in order. */
export const arrayElements = (array: SyntaxNode): Array<SyntaxNode> => {
  const elements: Array<SyntaxNode> = []
  for (let child = array.firstChild; child !== null; child = child.nextSibling)
    if (VALUE_NODES.has(child.name)) elements.push(child)
  return elements
}

/** The properties of an object, in order. */
export const objectProperties = (object: SyntaxNode): Array<SyntaxNode> => object.getChildren("Property")

/** The path from the top value to a value node (or to the value position inside a property). */
export const pathOf = (node: SyntaxNode, doc: string): Array<string | number> => {
  const path: Array<string | number> = []
  let child = node
  for (let parent = node.parent; parent !== null; child = parent, parent = parent.parent) {
    if (parent.name === "Property" && child.name !== "PropertyName") {
      path.unshift(propertyName(parent, doc) ?? "")
    } else if (parent.name === "Array") {
      // a position between elements counts as the next element
      path.unshift(arrayElements(parent).filter((element) => element.from < child.from).length)
    }
  }
  return path
}

/** The value at a path, and how much of the path exists: the deepest node found when the rest is missing. */
export const nodeAt = (
  tree: Tree,
  doc: string,
  path: JsonPath
): { readonly node: SyntaxNode; readonly found: number } | undefined => {
  let node = topValue(tree)
  if (node === null) return undefined
  let found = 0
  for (const step of path) {
    let next: SyntaxNode | null = null
    if (typeof step === "number" && node.name === "Array") next = arrayElements(node)[step] ?? null
    if (typeof step === "string" && node.name === "Object") {
      const property: SyntaxNode | undefined = objectProperties(node).find(
        (candidate) => propertyName(candidate, doc) === step
      )
      next = property === undefined ? null : (propertyValue(property) ?? property)
    }
    if (next === null) break
    node = next
    found++
  }
  return { node, found }
}

export type JsonPrimitive = string | number | boolean | null

/** What an object already says: its property names, and the plain (string, number, boolean, null) values among them. */
export interface WrittenProperties {
  readonly names: ReadonlySet<string>
  readonly primitives: Readonly<Record<string, JsonPrimitive>>
  /** The properties whose value is an object or an array. */
  readonly containers: Readonly<Record<string, "Object" | "Array">>
}

/** The properties written in an object: what tells the members of a union apart. */
export const writtenProperties = (object: SyntaxNode, doc: string, editingAt?: number): WrittenProperties => {
  const names = new Set<string>()
  const primitives: Record<string, JsonPrimitive> = {}
  const containers: Record<string, "Object" | "Array"> = {}
  for (const property of objectProperties(object)) {
    // the name being typed says nothing yet
    if (property.getChild("PropertyName")?.from === editingAt) continue
    const name = propertyName(property, doc)
    if (name === undefined) continue
    names.add(name)
    const value = propertyValue(property)
    if (value === null) continue
    if (value.name === "Object" || value.name === "Array") {
      containers[name] = value.name
      continue
    }
    try {
      primitives[name] = JSON.parse(doc.slice(value.from, value.to)) as JsonPrimitive
    } catch {
      // an unfinished string tells nothing yet
    }
  }
  return { names, primitives, containers }
}

/** The name of the property holding a value, or the value's first character: a short mark rather than a whole object. */
const markOf = (node: SyntaxNode): { from: number; to: number } => {
  const name = node.parent?.name === "Property" ? node.parent.getChild("PropertyName") : null
  if (name !== null && name !== undefined) return { from: name.from, to: name.to }
  if (node.name === "Object" || node.name === "Array") return { from: node.from, to: node.from + 1 }
  return { from: node.from, to: node.to }
}

/** The document's first character: where a problem of the whole document is shown. */
export const topOfDocument = (doc: string): { from: number; to: number } => ({ from: 0, to: Math.min(1, doc.length) })

/** Where a problem at a path is shown. */
export const locate = (
  tree: Tree,
  doc: string,
  path: JsonPath,
  unexpectedKey: boolean
): { from: number; to: number } => {
  const located = nodeAt(tree, doc, path)
  if (located === undefined) return topOfDocument(doc)
  const { node, found } = located
  if (found === path.length && unexpectedKey) return markOf(node)
  if (found === path.length && node.name !== "Object" && node.name !== "Array") return { from: node.from, to: node.to }
  return markOf(node)
}
