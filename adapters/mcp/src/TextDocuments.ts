/**
 * The DocumentRenderer port as plain text: a document the core writes (the IPID of a product variant) as lines a
 * model reads — its title, each section's heading, paragraphs, lists, facts, links and tables — where the service
 * prints the same document as PDF. The resources answer it so, as `text/plain`.
 */
import type { DocumentRenderer } from "@kasko/core"
import { Effect } from "effect"

type PrintedDocument = DocumentRenderer.PrintedDocument
type Block = PrintedDocument["sections"][number]["blocks"][number]

const linesOf = (block: Block): ReadonlyArray<string> => {
  switch (block.kind) {
    case "paragraph":
      return [block.text]
    case "list":
      return block.items.map((item) => `- ${item}`)
    case "facts":
      return block.rows.map(([label, value]) => `${label}: ${value}`)
    case "links":
      return block.links.map((link) => `${link.title}: ${link.url}`)
    case "table":
      return [block.columns.map((column) => column.title), ...block.rows].map((row) => row.join(" | "))
  }
}

/** A printed document as plain text. */
export const textOf = (document: PrintedDocument): string =>
  [
    document.title,
    document.subtitle,
    ...document.sections.flatMap((section) => [
      "",
      `## ${section.heading}`,
      ...section.blocks.flatMap((block) => [...linesOf(block), ""]).slice(0, -1)
    ]),
    "",
    document.footer
  ].join("\n")

/** The DocumentRenderer that writes plain text (UTF-8). */
export const textRenderer: DocumentRenderer.DocumentRenderer["Service"] = {
  render: (document) =>
    Effect.succeed({ mediaType: "text/plain; charset=utf-8", bytes: new TextEncoder().encode(textOf(document)) })
}
