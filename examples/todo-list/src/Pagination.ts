/**
 * Paginated collections in the conventions of spec §4: `page` and `size`
 * query parameters (page numbers start at 0), and the page shape
 * `{elements, page: {size, total_elements, total_pages, number}, _links}` with
 * `next`/`prev` links carrying page and size — an empty `_links` when there
 * are none.
 */
import type { Violation } from "@kasko/core"
import { Result, Schema } from "effect"

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 100

export interface PageRequest {
  readonly page: number
  readonly size: number
}

type QueryValue = string | ReadonlyArray<string> | undefined

const wholeNumber = (
  name: string,
  value: QueryValue,
  fallback: number,
  min: number,
  max: number
): number | Violation => {
  if (value === undefined) return fallback
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) return { field: name, message: "must be a whole number" }
  const number = Number(value)
  return number >= min && number <= max ? number : { field: name, message: `must be between ${min} and ${max}` }
}

/** Reads `page` and `size` from a query, reporting each bad one. */
export const parsePageRequest = (
  query: Readonly<Record<string, QueryValue>>
): Result.Result<PageRequest, Array<Violation>> => {
  const page = wholeNumber("page", query["page"], 0, 0, 1_000_000_000)
  const size = wholeNumber("size", query["size"], DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)
  const violations = [page, size].filter((value): value is Violation => typeof value === "object")
  return violations.length > 0
    ? Result.fail(violations)
    : Result.succeed({ page: page as number, size: size as number })
}

const Link = Schema.Struct({ href: Schema.String })

/** The page shape around elements of one schema. */
export const Page = <Element extends Schema.Top>(element: Element) =>
  Schema.Struct({
    elements: Schema.Array(element),
    page: Schema.Struct({ size: Schema.Int, total_elements: Schema.Int, total_pages: Schema.Int, number: Schema.Int }),
    _links: Schema.Struct({
      next: Schema.optionalKey(Link),
      prev: Schema.optionalKey(Link)
    })
  })

export interface PageOf<A> {
  readonly elements: ReadonlyArray<A>
  readonly page: {
    readonly size: number
    readonly total_elements: number
    readonly total_pages: number
    readonly number: number
  }
  readonly _links: { readonly next?: { readonly href: string }; readonly prev?: { readonly href: string } }
}

/** `path?page=…&size=…` plus any other query parameters the collection was asked with. */
export const pageHref =
  (path: string, otherParameters: Readonly<Record<string, string>> = {}) =>
  (page: number, size: number) =>
    `${path}?${new URLSearchParams({ ...otherParameters, page: String(page), size: String(size) }).toString()}`

/** One page of a collection, with links to its neighbours. */
export const pageOf = <A>(
  all: ReadonlyArray<A>,
  request: PageRequest,
  href: (page: number, size: number) => string
): PageOf<A> => {
  const totalPages = Math.ceil(all.length / request.size)
  const hasNext = request.page + 1 < totalPages
  const hasPrevious = request.page > 0 && totalPages > 0
  return {
    elements: all.slice(request.page * request.size, (request.page + 1) * request.size),
    page: { size: request.size, total_elements: all.length, total_pages: totalPages, number: request.page },
    _links: {
      ...(hasNext ? { next: { href: href(request.page + 1, request.size) } } : {}),
      ...(hasPrevious ? { prev: { href: href(Math.min(request.page - 1, totalPages - 1), request.size) } } : {})
    }
  }
}
