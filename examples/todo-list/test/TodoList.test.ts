/** The guideline showcase of spec §4, end to end over HTTP. */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { pino } from "pino"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTodoApp } from "../src/TodoApp.js"

const NOW = Date.parse("2030-03-02T09:00:00.000Z")
let server: Server
let base = ""

beforeAll(async () => {
  server = createServer(makeTodoApp({ logger: pino({ level: "silent" }), now: () => NOW }))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } })
  })
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    headers: response.headers,
    body: (await response.json()) as any
  }
}

const create = (title: string, due_at: string) =>
  call("POST", "/todo-list/todos", { title, description: `Opgave: ${title}`, due_at })

const expectViolation = (answer: Awaited<ReturnType<typeof call>>, field: string) => {
  expect(answer.status).toBe(400)
  expect(answer.type).toContain("application/problem+json")
  expect(answer.body).toMatchObject({ title: "Constraint Violation", status: 400 })
  expect(answer.body.violations.map((violation: { field: string }) => violation.field)).toContain(field)
}

describe("the todo-list showcase (spec §4)", () => {
  let first: any
  beforeAll(async () => {
    first = (await create("Bestil syn", "2030-03-05T10:00:00Z")).body
    // 11 more due on 2030-03-10, 1 on 2030-03-11
    for (let index = 1; index <= 11; index++) await create(`Ring til kunde ${index}`, "2030-03-10T08:00:00Z")
    await create("Forny police", "2030-03-11T12:30:00+02:00")
  })

  it("creates a todo: 200 with todo_id (UUID), title, description, due_at and created_at", async () => {
    const answer = await create("Skift dæk", "2030-04-01T07:30:00Z")
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      todo_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      title: "Skift dæk",
      description: "Opgave: Skift dæk",
      due_at: "2030-04-01T07:30:00.000Z",
      created_at: "2030-03-02T09:00:00.000Z"
    })
  })

  it("gets a todo by id, and answers 404 problem+json for an unknown one", async () => {
    expect((await call("GET", `/todo-list/todos/${first.todo_id}`)).body).toEqual(first)
    const missing = await call("GET", "/todo-list/todos/00000000-0000-4000-8000-000000000000")
    expect(missing.status).toBe(404)
    expect(missing.type).toContain("application/problem+json")
    expect(missing.body).toMatchObject({ title: "Not Found", status: 404 })
  })

  it("lists todos in pages of 10 by default, with a next link carrying page and size", async () => {
    const answer = await call("GET", "/todo-list/todos")
    expect(answer.status).toBe(200)
    expect(answer.body.elements).toHaveLength(10)
    expect(answer.body.page).toEqual({ size: 10, total_elements: 14, total_pages: 2, number: 0 })
    expect(answer.body._links).toEqual({ next: { href: "/todo-list/todos?page=1&size=10" } })
  })

  it("answers the last page with a prev link and no next link", async () => {
    const answer = await call("GET", "/todo-list/todos?page=1&size=10")
    expect(answer.body.elements).toHaveLength(4)
    expect(answer.body.page).toEqual({ size: 10, total_elements: 14, total_pages: 2, number: 1 })
    expect(answer.body._links).toEqual({ prev: { href: "/todo-list/todos?page=0&size=10" } })
  })

  it("honours the size and links both ways from a middle page", async () => {
    const answer = await call("GET", "/todo-list/todos?page=1&size=5")
    expect(answer.body.elements).toHaveLength(5)
    expect(answer.body._links).toEqual({
      next: { href: "/todo-list/todos?page=2&size=5" },
      prev: { href: "/todo-list/todos?page=0&size=5" }
    })
  })

  it("filters by due_at date, carrying the filter in the links", async () => {
    const answer = await call("GET", "/todo-list/todos?due_at=2030-03-10&size=5")
    expect(answer.body.page).toEqual({ size: 5, total_elements: 11, total_pages: 3, number: 0 })
    expect(answer.body.elements.every((todo: { due_at: string }) => todo.due_at.startsWith("2030-03-10"))).toBe(true)
    expect(answer.body._links).toEqual({ next: { href: "/todo-list/todos?due_at=2030-03-10&page=1&size=5" } })
  })

  it("answers an empty page, with no links, when nothing is due that day", async () => {
    const answer = await call("GET", "/todo-list/todos?due_at=2030-12-24")
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      elements: [],
      page: { size: 10, total_elements: 0, total_pages: 0, number: 0 },
      _links: {}
    })
  })

  it("searches by due_at with POST, in the same page shape", async () => {
    const answer = await call("POST", "/todo-list/todos/search?size=10", { due_at: "2030-03-11" })
    expect(answer.status).toBe(200)
    expect(answer.body.page).toEqual({ size: 10, total_elements: 1, total_pages: 1, number: 0 })
    expect(answer.body.elements[0].title).toBe("Forny police")
    expect(answer.body._links).toEqual({})
  })

  it.each([
    ["a page that is not an integer", "GET", "/todo-list/todos?page=one", undefined, "page"],
    ["a negative page", "GET", "/todo-list/todos?page=-1", undefined, "page"],
    ["a size over the maximum", "GET", "/todo-list/todos?size=1000", undefined, "size"],
    ["a due_at filter that is not a date", "GET", "/todo-list/todos?due_at=tomorrow", undefined, "due_at"],
    ["a due_at filter in the past", "GET", "/todo-list/todos?due_at=2030-03-01", undefined, "due_at"],
    ["a search due_at that is not a date", "POST", "/todo-list/todos/search", { due_at: "2030-02-30" }, "due_at"],
    ["a search due_at in the past", "POST", "/todo-list/todos/search", { due_at: "2029-12-31" }, "due_at"],
    [
      "a todo due in the past",
      "POST",
      "/todo-list/todos",
      { title: "x", description: "y", due_at: "2030-03-01T00:00:00Z" },
      "due_at"
    ],
    [
      "a todo whose due_at is not a date-time",
      "POST",
      "/todo-list/todos",
      { title: "x", description: "y", due_at: "2030-03-10" },
      "due_at"
    ],
    [
      "a todo without a title",
      "POST",
      "/todo-list/todos",
      { description: "y", due_at: "2030-03-10T00:00:00Z" },
      "title"
    ],
    [
      "a todo with an unknown field",
      "POST",
      "/todo-list/todos",
      { title: "x", description: "y", due_at: "2030-03-10T00:00:00Z", done: true },
      "done"
    ]
  ])("answers 400 with a violation for %s", async (_what, method, path, body, field) => {
    expectViolation(await call(method, path, body), field)
  })

  it("answers wrong methods with 405 and unknown paths with 404, as problem+json", async () => {
    const wrong = await call("DELETE", "/todo-list/todos")
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get("allow")).toBe("GET, POST, HEAD")
    expect((await call("GET", "/todo-list/lists")).status).toBe(404)
  })
})
