/** The README's tool list is the one a client reads: each tool's name, title, scope, arguments and sizes. */
import { ProductCatalogue } from "@kasko/core"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { toolsOf } from "../src/Tools.js"

const README = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8")

it("lists every tool as tools/list gives it for the shipped products", () => {
  const table = README.slice(README.indexOf("<!-- tools:start -->"), README.indexOf("<!-- tools:end -->"))
  const rows = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim())
    )
  expect(rows).toEqual(
    toolsOf(ProductCatalogue.shipped).map((tool) => [
      `\`${tool.name}\``,
      tool.title,
      `\`${tool.scope}\``,
      Object.keys(tool.inputSchema["properties"] as object)
        .map((name) => `\`${name}\``)
        .join(", "),
      String(JSON.stringify(tool.inputSchema).length),
      String(tool.description.length)
    ])
  )
})
