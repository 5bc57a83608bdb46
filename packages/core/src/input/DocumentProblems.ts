/**
 * What a Schema refuses in a document a person wrote (a product, a tariff), as one line per problem at its JSON
 * path (`parameters[2].options[1].id`): every problem at once, an unknown member with the member it was probably
 * meant to be, and, where a value matches no member of a union (a condition that is neither a comparison nor
 * all/any/not), only the problems of the member it comes closest to — not every member's complaint about it.
 */
import { SchemaAST, SchemaIssue } from "effect"
import { fieldPath } from "./FieldPath.js"

/** One problem of a document: where (its JSON path, "" for the whole document) and what. */
export interface DocumentProblem {
  readonly path: string
  readonly message: string
}

interface Located {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /** A member missing or unknown: the value has another shape than the schema's. */
  readonly shape: boolean
}

// a value a message quotes can be a whole object of the document: a line holds its start
const MESSAGE_LENGTH = 160

const bounded = (message: string): string => {
  const line = message.replace(/\s+/g, " ")
  return line.length > MESSAGE_LENGTH ? `${line.slice(0, MESSAGE_LENGTH - 1)}…` : line
}

/** The edit distance of two names (Levenshtein), to tell a typo from a member of its own. */
const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

const unknownMember = (name: PropertyKey, ast: SchemaAST.AST): string => {
  const known = SchemaAST.isObjects(ast) ? ast.propertySignatures.map((signature) => String(signature.name)) : []
  if (known.length === 0) return "is not a known member"
  const closest = known
    .map((candidate) => ({ candidate, distance: distance(String(name), candidate) }))
    .sort((a, b) => a.distance - b.distance)[0]!
  return closest.distance <= Math.max(1, Math.floor(closest.candidate.length / 3))
    ? `is not a known member: did you mean "${closest.candidate}"?`
    : `is not a known member (known: ${known.join(", ")})`
}

const leafMessage: SchemaIssue.LeafHook = (issue) =>
  issue._tag === "MissingKey" ? "is missing" : SchemaIssue.defaultLeafHook(issue)

const format = SchemaIssue.makeFormatterStandardSchemaV1({ leafHook: leafMessage })

/** The member of a union whose problems say the value is closest to it: fewest shape mismatches, then fewest problems. */
const closest = (members: ReadonlyArray<Array<Located>>, depth: number): Array<Located> => {
  const score = (problems: ReadonlyArray<Located>) =>
    problems.filter((problem) => problem.shape && problem.path.length === depth + 1).length * 1000 + problems.length
  return members.reduce((best, member) => (score(member) < score(best) ? member : best))
}

const locate = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): Array<Located> => {
  switch (issue._tag) {
    case "Pointer":
      if (issue.issue._tag === "UnexpectedKey") {
        const key = issue.path[issue.path.length - 1]!
        return [{ path: [...path, ...issue.path], message: unknownMember(key, issue.issue.ast), shape: true }]
      }
      return locate(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => locate(inner, path))
    case "AnyOf":
      if (issue.issues.length > 0) {
        return closest(
          issue.issues.map((inner) => locate(inner, path)),
          path.length
        )
      }
      break
  }
  // a check's own message ("must be a date YYYY-MM-DD") does not quote the value it refused, which a reader needs
  const refused = issue._tag === "Filter" && issue.input !== undefined ? `, got ${JSON.stringify(issue.input)}` : ""
  return format(issue).issues.map((entry) => ({
    path: [...path, ...(entry.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment))],
    message: entry.message.includes(", got ") ? entry.message : `${entry.message}${refused}`,
    shape: issue._tag === "MissingKey"
  }))
}

/** Every problem of a Schema issue, at its JSON path, each once, in the order the Schema found them. */
export const documentProblems = (issue: SchemaIssue.Issue): Array<DocumentProblem> => {
  const seen = new Set<string>()
  return locate(issue, []).flatMap((problem) => {
    const entry = { path: fieldPath(problem.path), message: bounded(problem.message) }
    const key = `${entry.path}\u0000${entry.message}`
    if (seen.has(key)) return []
    seen.add(key)
    return [entry]
  })
}
