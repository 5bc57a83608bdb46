#!/usr/bin/env node
/** Serves the todo-list showcase on PORT (default 8081). */
import { pino } from "pino"
import { makeTodoApp } from "./TodoApp.js"

const port = Number(process.env["PORT"] ?? 8081)
const server = makeTodoApp({ logger: pino() }).listen(port, () => {
  process.stderr.write(`todo-list showcase on http://localhost:${port}/todo-list/todos\n`)
})
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => server.close())
