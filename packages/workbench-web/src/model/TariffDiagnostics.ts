/**
 * What the editor underlines in tariff JSON: every problem the tariff's
 * Schema finds (the same decode the engine loads tariffs with, all errors,
 * unknown properties refused), a rule the compiler refuses, and the linter's
 * findings on the rule they name — each placed on the node it is about.
 */
import type { SyntaxNode, Tree } from "@lezer/common"
import { Decoding, Tariff } from "@kasko/core/actuarial"
import { lintTariff } from "@kasko/workbench/browser"
import { Either, ParseResult, Schema } from "effect"
import {
  arrayElements,
  nodeAt,
  objectProperties,
  propertyName,
  propertyValue,
  topValue,
  type JsonPath
} from "./JsonSyntax.js"
import { tariffVersionOf } from "./TariffVersion.js"

export interface TariffDiagnostic {
  readonly from: number
  readonly to: number
  readonly severity: "error" | "warning"
  readonly message: string
}

const decodeTariff = Schema.decodeUnknownEither(Tariff.Tariff, { errors: "all", onExcessProperty: "error" })

/** The name of the property holding a value, or the value's first character: a short mark rather than a whole object. */
const markOf = (node: SyntaxNode): { from: number; to: number } => {
  const name = node.parent?.name === "Property" ? node.parent.getChild("PropertyName") : null
  if (name !== null && name !== undefined) return { from: name.from, to: name.to }
  if (node.name === "Object" || node.name === "Array") return { from: node.from, to: node.from + 1 }
  return { from: node.from, to: node.to }
}

const TOP = (doc: string) => ({ from: 0, to: Math.min(1, doc.length) })

/** Where a problem at a path is shown. */
export const locate = (
  tree: Tree,
  doc: string,
  path: JsonPath,
  unexpectedKey: boolean
): { from: number; to: number } => {
  const located = nodeAt(tree, doc, path)
  if (located === undefined) return TOP(doc)
  const { node, found } = located
  if (found === path.length && unexpectedKey) return markOf(node)
  if (found === path.length && node.name !== "Object" && node.name !== "Array") return { from: node.from, to: node.to }
  return markOf(node)
}

const ruleNameNode = (tree: Tree, doc: string, rule: string): SyntaxNode | undefined => {
  const top = topValue(tree)
  if (top?.name !== "Object") return undefined
  const rules = objectProperties(top).find((property) => propertyName(property, doc) === "rules")
  const list = rules === undefined ? null : propertyValue(rules)
  if (list?.name !== "Array") return undefined
  for (const element of arrayElements(list)) {
    if (element.name !== "Object") continue
    const name = objectProperties(element).find((property) => propertyName(property, doc) === "name")
    const value = name === undefined ? null : propertyValue(name)
    if (value !== null && doc.slice(value.from, value.to) === JSON.stringify(rule)) return value
  }
  return undefined
}

/** Every problem of a tariff text that is JSON (syntax errors are the JSON linter's). */
export const tariffDiagnostics = (tree: Tree, doc: string): Array<TariffDiagnostic> => {
  let document: unknown
  try {
    document = JSON.parse(doc)
  } catch {
    return []
  }
  const decoded = decodeTariff(document)
  if (Either.isLeft(decoded)) {
    return ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => ({
      ...locate(tree, doc, issue.path as JsonPath, issue._tag === "Unexpected"),
      severity: "error",
      message: `${Decoding.fieldPath(issue.path) || "tariff"}: ${issue.message}`
    }))
  }
  const loaded = tariffVersionOf("editor", doc)
  if (loaded.problem !== undefined) return [{ ...TOP(doc), severity: "error", message: loaded.problem }]
  return lintTariff(document).map((finding) => {
    const node = finding.rule === undefined ? undefined : ruleNameNode(tree, doc, finding.rule)
    return {
      ...(node === undefined ? TOP(doc) : { from: node.from, to: node.to }),
      severity: finding.severity,
      message: `${finding.rule === undefined ? "" : `rule "${finding.rule}" `}${finding.message}`
    }
  })
}
