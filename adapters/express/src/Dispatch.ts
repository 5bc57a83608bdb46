/**
 * Which operation a request is for: its method and path against the
 * operation table's templates — exact, case-sensitive, no trailing slash —
 * below the base path. Path parameters come back percent-decoded; one that
 * does not decode is the client's mistake (400), never the service's.
 */
import type { Operation } from "./Operations.js"
import { constraintViolation, type ProblemAnswer } from "./Problem.js"

export type Match =
  | { readonly operation: Operation; readonly params: Readonly<Record<string, string>> }
  | { readonly operation: Operation; readonly refused: ProblemAnswer }

interface Route {
  readonly operation: Operation
  readonly method: string
  /** The template's segments: a literal, or the name of a parameter. */
  readonly segments: ReadonlyArray<{ readonly literal: string } | { readonly parameter: string }>
}

const MALFORMED_PATH = constraintViolation([{ field: "path", message: "has malformed percent-encoding" }])

const routeOf = (operation: Operation): Route => ({
  operation,
  method: operation.method.toUpperCase(),
  segments: operation.path
    .split("/")
    .slice(1)
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment)?.[1]
      return parameter === undefined ? { literal: segment } : { parameter }
    })
})

/** A dispatcher over the operations, for paths below `basePath` ("" for the root) or at the root for those served there. */
export const makeDispatch = (operations: ReadonlyArray<Operation>, basePath: string) => {
  const routes = operations.map(routeOf)
  return (method: string, url: string): Match | undefined => {
    const query = url.indexOf("?")
    const fullPath = query === -1 ? url : url.slice(0, query)
    const requested = method === "HEAD" ? "GET" : method
    for (const route of routes) {
      if (route.method !== requested) continue
      const prefix = route.operation.servedAtRoot ? "" : basePath
      if (prefix !== "" && !fullPath.startsWith(`${prefix}/`)) continue
      const segments = fullPath.slice(prefix.length).split("/").slice(1)
      if (segments.length !== route.segments.length) continue
      const params: Record<string, string> = {}
      let matches = true
      let malformed = false
      for (let index = 0; index < segments.length && matches; index++) {
        const template = route.segments[index]!
        const segment = segments[index]!
        if ("literal" in template) {
          matches = segment === template.literal
        } else if (segment === "") {
          matches = false
        } else {
          try {
            params[template.parameter] = decodeURIComponent(segment)
          } catch {
            malformed = true
          }
        }
      }
      if (!matches) continue
      return malformed
        ? { operation: route.operation, refused: MALFORMED_PATH }
        : { operation: route.operation, params }
    }
    return undefined
  }
}
