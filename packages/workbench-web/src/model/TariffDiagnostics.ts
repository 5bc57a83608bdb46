/**
 * What the editor underlines in tariff JSON: every problem the tariff's
 * Schema finds (the same decode the engine loads tariffs with, all errors,
 * unknown properties refused), a rule the compiler refuses, and the linter's
 * findings on the rule they name — each placed on the node it is about.
 */
import type { SyntaxNode, Tree } from "@lezer/common"
import { Decoding, ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { lintTariff } from "@kasko/workbench/browser"
import { Formatter, Result, Schema, SchemaAST, SchemaIssue } from "effect"
import {
  arrayElements,
  locate,
  objectProperties,
  propertyName,
  propertyValue,
  topOfDocument,
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

// the input is reported so that a message can say what was written
const decodeTariff = ProductCatalogue.perCatalogue((catalogue) =>
  Schema.decodeUnknownResult(Tariff.tariffSchemaOf(catalogue), {
    errors: "all",
    onExcessProperty: "error",
    reportInput: true
  })
)

interface Problem {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  readonly unexpectedKey: boolean
}

/** Effect 3's wording, which the editor's messages keep: `Expected "DKK", actual "EUR"`. */
const withActual = (expected: string, issue: SchemaIssue.Issue): string =>
  SchemaIssue.hasInput(issue) ? `${expected}, actual ${Formatter.format(issue.input)}` : expected

const expectedOf = (ast: SchemaAST.AST): string => SchemaIssue.defaultLeafHook(new SchemaIssue.InvalidType(ast))

/**
 * A union of objects told apart by a literal property (an instruction's `type`)
 * that the input has wrong or lacks: the problem is that property, not the whole object.
 */
const wrongTag = (
  union: SchemaAST.AST,
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey>
): Array<Problem> | undefined => {
  if (union._tag !== "Union" || !SchemaIssue.hasInput(issue)) return undefined
  const input = issue.input
  const members = union.types.filter(SchemaAST.isObjects)
  if (members.length !== union.types.length || typeof input !== "object" || input === null) return undefined
  for (const { name } of members[0]?.propertySignatures ?? []) {
    const tags = members.flatMap((member) => {
      const type = member.propertySignatures.find((signature) => signature.name === name)?.type
      return type?._tag === "Literal" ? [JSON.stringify(type.literal)] : []
    })
    if (tags.length < members.length) continue
    const message = Object.hasOwn(input, name)
      ? `Expected ${tags.join(" | ")}, actual ${Formatter.format(Reflect.get(input, name))}`
      : "is missing"
    return [{ path: [...path, name], message, unexpectedKey: false }]
  }
  return undefined
}

/** Every problem of a decode, at its path, worded as the editor shows it. */
const problemsOf = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, message?: string): Array<Problem> => {
  const problem = (text: string, unexpectedKey = false) => [{ path, message: message ?? text, unexpectedKey }]
  switch (issue._tag) {
    case "Pointer":
      return problemsOf(issue.issue, [...path, ...issue.path], message)
    case "Encoding":
      return problemsOf(issue.issue, path, message)
    case "Composite":
      return issue.issues.flatMap((inner) => problemsOf(inner, path, message))
    case "AnyOf":
      if (issue.issues.length > 0) return issue.issues.flatMap((inner) => problemsOf(inner, path, message))
      return wrongTag(issue.ast, issue, path) ?? problem(withActual(expectedOf(issue.ast), issue))
    case "Filter": {
      const expected = issue.filter.annotations?.expected
      const filterMessage =
        SchemaIssue.defaultCheckHook(issue) ??
        (typeof expected === "string" ? withActual(`Expected ${expected}`, issue) : undefined)
      return problemsOf(issue.issue, path, message ?? filterMessage)
    }
    case "MissingKey":
      return problem("is missing")
    case "UnexpectedKey":
      return problem(
        SchemaAST.isObjects(issue.ast)
          ? `is unexpected, expected: ${issue.ast.propertySignatures.map(({ name }) => JSON.stringify(String(name))).join(" | ")}`
          : "is unexpected",
        true
      )
    case "InvalidType":
      return problem(
        typeof issue.ast.annotations?.message === "string"
          ? issue.ast.annotations.message
          : withActual(expectedOf(issue.ast), issue)
      )
    default:
      return problem(SchemaIssue.defaultLeafHook(issue))
  }
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

/**
 * Every problem of a tariff text that is JSON (syntax errors are the JSON linter's), of a tariff of the catalogue's
 * products (the shipped ones unless given).
 */
export const tariffDiagnostics = (
  tree: Tree,
  doc: string,
  catalogue: ProductCatalogue.Catalogue = ProductCatalogue.shipped
): Array<TariffDiagnostic> => {
  let document: unknown
  try {
    document = JSON.parse(doc)
  } catch {
    return []
  }
  const decoded = decodeTariff(catalogue)(document)
  if (Result.isFailure(decoded)) {
    return problemsOf(decoded.failure.issue, []).map((problem) => ({
      ...locate(tree, doc, problem.path as JsonPath, problem.unexpectedKey),
      severity: "error",
      message: `${Decoding.fieldPath(problem.path) || "tariff"}: ${problem.message}`
    }))
  }
  const loaded = tariffVersionOf("editor", doc, false, catalogue)
  if (loaded.problem !== undefined) return [{ ...topOfDocument(doc), severity: "error", message: loaded.problem }]
  return lintTariff(document, catalogue).map((finding) => {
    const node = finding.rule === undefined ? undefined : ruleNameNode(tree, doc, finding.rule)
    return {
      ...(node === undefined ? topOfDocument(doc) : { from: node.from, to: node.to }),
      severity: finding.severity,
      message: `${finding.rule === undefined ? "" : `rule "${finding.rule}" `}${finding.message}`
    }
  })
}
