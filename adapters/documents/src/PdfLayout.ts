/**
 * The core's `PrintedDocument` laid out as PDF with pdfkit on A4 — title, sections, paragraphs, lists,
 * label–value facts and tables — in DejaVu Sans, embedded (subset), so that æ, ø and å print wherever the file
 * is opened. A4 pages, a footer and page numbers on each.
 */
import type { DocumentRenderer } from "@kasko/core"
import { create, type Font } from "fontkit"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import PDFDocument from "pdfkit"

type Document = DocumentRenderer.PrintedDocument
type Block = Document["sections"][number]["blocks"][number]

const require = createRequire(import.meta.url)

/** The TrueType files of dejavu-fonts-ttf, parsed once: a font parsed per document costs ~20 ms of its ~25. */
const loadFont = (file: string): Font => create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as Font

let fonts: { readonly regular: Font; readonly bold: Font } | undefined
const loadedFonts = () => (fonts ??= { regular: loadFont("DejaVuSans.ttf"), bold: loadFont("DejaVuSans-Bold.ttf") })

/**
 * Word layouts (fontkit's shaping of each word, the widths a line break needs) kept across documents, per font:
 * pdfkit keeps them per document only, and shaping the same words again was a third of a quote document's time.
 * Given to pdfkit's embedded font as its `layoutCache` (pdfkit's own, used when present: a pdfkit without it
 * only loses the gain); a layout depends on the font alone, which every document shares. Emptied when it holds
 * more than MAX_KEPT_LAYOUTS words, as names and numbers differ from quote to quote.
 */
const MAX_KEPT_LAYOUTS = 20_000
const LAYOUT_CHECK_EVERY = 256
const keptLayouts: Record<string, Record<string, unknown>> = {}
let rendersSinceCheck = 0

const shareLayouts = (pdf: Pdf) => {
  if (++rendersSinceCheck >= LAYOUT_CHECK_EVERY) {
    rendersSinceCheck = 0
    for (const name of Object.keys(keptLayouts))
      if (Object.keys(keptLayouts[name]!).length > MAX_KEPT_LAYOUTS) delete keptLayouts[name]
  }
  for (const name of ["bold", "regular"]) {
    pdf.font(name)
    const embedded = (pdf as unknown as { readonly _font?: { layoutCache?: Record<string, unknown> } })._font
    if (embedded !== undefined && "layoutCache" in embedded)
      embedded.layoutCache = keptLayouts[name] ??= Object.create(null)
  }
}

const MARGIN = 56
const FOOTER_HEIGHT = 36
const INK = "#1a1a1a"
const MUTED = "#555555"
const ACCENT = "#1f3a5f"
const RULE = "#c8d0da"
const TABLE_HEAD = "#e8eef5"
const FACT_GAP = 3
const SIZES = { title: 18, subtitle: 10.5, heading: 12, body: 9.5, small: 8 } as const

type Pdf = PDFKit.PDFDocument

const ensureRoom = (pdf: Pdf, height: number) => {
  if (pdf.y + height > pdf.page.height - pdf.page.margins.bottom) pdf.addPage()
}

const paragraphOf = (pdf: Pdf, text: string) => {
  pdf.font("regular").fontSize(SIZES.body).fillColor(INK).text(text, { lineGap: 1.5 })
  pdf.moveDown(0.5)
}

const listOf = (pdf: Pdf, items: ReadonlyArray<string>) => {
  pdf.font("regular").fontSize(SIZES.body).fillColor(INK)
  pdf.list([...items], { bulletRadius: 1.6, textIndent: 10, bulletIndent: 2, lineGap: 1.5, paragraphGap: 2 })
  pdf.moveDown(0.5)
}

const contentWidth = (pdf: Pdf) => pdf.page.width - pdf.page.margins.left - pdf.page.margins.right

const tableOf = (
  pdf: Pdf,
  columns: ReadonlyArray<{ readonly title: string; readonly figures?: boolean; readonly width?: number }>,
  rows: ReadonlyArray<ReadonlyArray<string>>
) => {
  const total = columns.reduce((sum, column) => sum + (column.width ?? 1), 0)
  const width = contentWidth(pdf)
  pdf.x = pdf.page.margins.left
  pdf.font("regular").fontSize(SIZES.body).fillColor(INK)
  pdf.table({
    columnStyles: columns.map((column) => ({
      width: (width * (column.width ?? 1)) / total,
      align: { x: column.figures === true ? "right" : "left", y: "top" }
    })),
    defaultStyle: { border: { bottom: 0.5 }, borderColor: RULE, padding: [3, 4] },
    data: [
      columns.map((column) => ({
        text: column.title,
        type: "TH" as const,
        font: { src: "bold" },
        backgroundColor: TABLE_HEAD,
        textColor: ACCENT
      })),
      ...rows.map((row) => [...row])
    ]
  })
  pdf.x = pdf.page.margins.left
  pdf.moveDown(0.6)
}

/**
 * Label–value rows, as two columns of text. Not a pdfkit table: a table measures each cell twice and merges its
 * styles per cell, which made facts a third of a quote document's time; a row is measured once here.
 */
const factsOf = (pdf: Pdf, rows: ReadonlyArray<readonly [string, string]>) => {
  const left = pdf.page.margins.left
  const width = contentWidth(pdf)
  const labelWidth = width * 0.36 - 4
  const valueLeft = left + width * 0.36
  const valueWidth = width * 0.64
  pdf.font("regular").fontSize(SIZES.body)
  for (const [label, value] of rows) {
    const height = Math.max(
      pdf.heightOfString(label, { width: labelWidth }),
      pdf.heightOfString(value, { width: valueWidth })
    )
    ensureRoom(pdf, height + FACT_GAP)
    const top = pdf.y
    pdf.fillColor(MUTED).text(label, left, top, { width: labelWidth })
    pdf.fillColor(INK).text(value, valueLeft, top, { width: valueWidth })
    pdf.y = top + height + FACT_GAP
  }
  pdf.x = left
  pdf.moveDown(0.6)
}

/**
 * Each link's title, then its URL on a line of its own, whole: pdfkit breaks a line after a "/" or "-", and a URL
 * broken there is neither typed nor clicked whole. A URL too wide for the page at body size is set smaller, as
 * much as it needs; an absolute one is clickable.
 */
const linksOf = (pdf: Pdf, entries: ReadonlyArray<{ readonly title: string; readonly url: string }>) => {
  const left = pdf.page.margins.left
  const indent = 10
  const width = contentWidth(pdf) - indent
  for (const { title, url } of entries) {
    ensureRoom(pdf, 2 * SIZES.body * 1.4)
    pdf.font("regular").fontSize(SIZES.body).fillColor(INK).text(`${title}:`, left, pdf.y, { lineGap: 1 })
    const size = Math.min(SIZES.body, (SIZES.body * width) / pdf.widthOfString(url))
    const top = pdf.y
    pdf
      .fontSize(size)
      .fillColor(ACCENT)
      .text(url, left + indent, top, { lineBreak: false, ...(/^https?:\/\//.test(url) ? { link: url } : {}) })
    // text that may not break moves along its line, not down: the next line starts below the URL by hand
    pdf.fontSize(SIZES.body)
    pdf.y = top + pdf.currentLineHeight(true)
    pdf.moveDown(0.4)
  }
  pdf.x = left
  pdf.moveDown(0.4)
}

const blockOf = (pdf: Pdf, block: Block) => {
  switch (block.kind) {
    case "paragraph":
      return paragraphOf(pdf, block.text)
    case "list":
      return listOf(pdf, block.items)
    case "facts":
      return factsOf(pdf, block.rows)
    case "links":
      return linksOf(pdf, block.links)
    case "table":
      return tableOf(pdf, block.columns, block.rows)
  }
}

const headerOf = (pdf: Pdf, document: Document) => {
  pdf.font("bold").fontSize(SIZES.title).fillColor(ACCENT).text(document.title)
  pdf.moveDown(0.2)
  pdf.font("regular").fontSize(SIZES.subtitle).fillColor(MUTED).text(document.subtitle)
  pdf.moveDown(0.4)
  const y = pdf.y
  pdf
    .moveTo(pdf.page.margins.left, y)
    .lineTo(pdf.page.width - pdf.page.margins.right, y)
    .lineWidth(1)
    .strokeColor(ACCENT)
    .stroke()
  pdf.moveDown(0.8)
}

/** The watermark across the page (a sandbox quote's TEST): large, pale, turned, over whatever the page holds. */
const watermarkOf = (pdf: Pdf, watermark: string) => {
  const { width, height } = pdf.page
  pdf.save()
  pdf.rotate(-35, { origin: [width / 2, height / 2] })
  pdf.font("bold").fontSize(120).fillColor("#d0021b").fillOpacity(0.18)
  pdf.text(watermark, 0, height / 2 - 70, { width, align: "center", lineBreak: false })
  pdf.restore()
  pdf.fillOpacity(1)
}

/** Footer and the page's number ("Side n af m") on every page; written into the bottom margin, which pdfkit would otherwise break on. */
const footersOf = (pdf: Pdf, document: Document) => {
  const range = pdf.bufferedPageRange()
  for (let index = range.start; index < range.start + range.count; index++) {
    pdf.switchToPage(index)
    const bottom = pdf.page.margins.bottom
    pdf.page.margins.bottom = 0
    const top = pdf.page.height - bottom + 10
    const width = contentWidth(pdf)
    pdf.font("regular").fontSize(SIZES.small).fillColor(MUTED)
    pdf.text(document.footer, pdf.page.margins.left, top, { width: width - 70, lineGap: 1 })
    const pageNumber = (document.pageNumbers ?? "Side {page} af {pages}")
      .replace("{page}", String(index + 1))
      .replace("{pages}", String(range.count))
    pdf.text(pageNumber, pdf.page.margins.left + width - 70, top, {
      width: 70,
      align: "right"
    })
    if (document.watermark !== undefined) watermarkOf(pdf, document.watermark)
    pdf.page.margins.bottom = bottom
  }
}

/** The document as PDF bytes: the same document (its `dated` included) gives the same bytes. */
export const renderPdf = (document: Document): Promise<Uint8Array> => {
  const { regular, bold } = loadedFonts()
  const dated = new Date(document.dated)
  const pdf = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_HEIGHT },
    bufferPages: true,
    tagged: true,
    lang: document.language,
    displayTitle: true,
    pdfVersion: "1.7",
    info: {
      Title: document.title,
      Subject: document.subtitle,
      Author: document.author,
      Creator: "kasko",
      CreationDate: dated,
      ModDate: dated
    },
    // no Helvetica by default: every glyph comes from the embedded font
    font: null as unknown as string
  })
  // pdfkit accepts a parsed fontkit font (its types name only files and buffers). Each font is registered under
  // its PostScript name as family: a table restores the font after every cell by its source and family, and with
  // the family pdfkit finds the font it has already embedded at once; without, it opens it again and compares the
  // two fonts' name tables as JSON, a fifth of a quote document's time
  pdf.registerFont("regular", regular as unknown as Buffer, regular.postscriptName)
  pdf.registerFont("bold", bold as unknown as Buffer, bold.postscriptName)
  shareLayouts(pdf)
  const chunks: Array<Buffer> = []
  const ended = new Promise<Uint8Array>((resolve, reject) => {
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk))
    pdf.on("end", () => resolve(Buffer.concat(chunks)))
    pdf.on("error", reject)
  })
  headerOf(pdf, document)
  for (const section of document.sections) {
    // a heading is not left alone at the foot of a page
    ensureRoom(pdf, 60)
    pdf.x = pdf.page.margins.left
    pdf.font("bold").fontSize(SIZES.heading).fillColor(ACCENT).text(section.heading)
    pdf.moveDown(0.3)
    for (const block of section.blocks) blockOf(pdf, block)
    pdf.moveDown(0.3)
  }
  footersOf(pdf, document)
  pdf.end()
  return ended
}
