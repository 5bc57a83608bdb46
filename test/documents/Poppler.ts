/**
 * Reading the PDFs kasko writes as a person's tools do: their text with `pdftotext`, their first page as a
 * picture with `pdftoppm` — Debian's poppler-utils. Without them the suites that need them are skipped with a
 * note, except in CI, where `.ci/run` installs them and a missing tool fails the suites.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const PDFTOTEXT = "/usr/bin/pdftotext"
const PDFTOPPM = "/usr/bin/pdftoppm"
const available = existsSync(PDFTOTEXT) && existsSync(PDFTOPPM)
const inCi = process.env["CI"] === "true"

/** Whether to skip the suites that read PDFs: only outside CI, only without poppler-utils. */
export const skipPoppler = !available && !inCi
if (skipPoppler)
  console.warn(
    `skipping the PDF documents' suites: ${PDFTOTEXT} and ${PDFTOPPM} are not installed (apt-get install poppler-utils)`
  )

/** The repository's docs/documents, where the first pages the tests render are kept (the README shows them). */
export const PICTURES = join(import.meta.dirname, "..", "..", "docs", "documents")

/**
 * Whether the tests write the first pages they render into docs/documents: only when asked
 * (KASKO_WRITE_DOCUMENT_PICTURES=1), as poppler's pixels differ between its versions and a test run must not
 * leave the tree changed.
 */
export const writesPictures = (environment: Readonly<Record<string, string | undefined>> = process.env): boolean =>
  environment["KASKO_WRITE_DOCUMENT_PICTURES"] === "1"

const withFile = <A>(bytes: Uint8Array, use: (file: string) => A): A => {
  const directory = mkdtempSync(join(tmpdir(), "kasko-pdf-"))
  try {
    const file = join(directory, "document.pdf")
    writeFileSync(file, bytes)
    return use(file)
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

/** The text of every page, as pdftotext reads it keeping the layout: a table's row on one line. */
export const pdfText = (bytes: Uint8Array): string =>
  withFile(bytes, (file) => execFileSync(PDFTOTEXT, ["-layout", "-enc", "UTF-8", file, "-"], { encoding: "utf8" }))

/** A PDF's text in the order its pages draw it (`pdftotext -raw`): turned text, a watermark's, reads whole. */
export const pdfRawText = (bytes: Uint8Array): string =>
  withFile(bytes, (file) => execFileSync(PDFTOTEXT, ["-raw", "-enc", "UTF-8", file, "-"], { encoding: "utf8" }))

/** The lines of a PDF's text, each with its runs of spaces made one. */
export const pdfLines = (bytes: Uint8Array): Array<string> =>
  pdfText(bytes)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")

/** How many pages the PDF has, as pdfinfo's sibling pdftotext sees them (form feeds between pages). */
export const pageCount = (bytes: Uint8Array): number =>
  pdfText(bytes)
    .split("\f")
    .filter((page) => page.trim()).length

/**
 * Renders the PDF's first page as a PNG and answers its bytes (so that pdftoppm reads every document the tests
 * print). Kept as docs/documents/<name>.png (committed: the README shows them) only when `writesPictures`;
 * otherwise rendered into a temporary directory, removed afterwards.
 */
export const firstPagePicture = (bytes: Uint8Array, name: string): Buffer => {
  const kept = writesPictures()
  const directory = kept ? PICTURES : mkdtempSync(join(tmpdir(), "kasko-picture-"))
  try {
    mkdirSync(directory, { recursive: true })
    const picture = join(directory, name)
    withFile(bytes, (file) =>
      execFileSync(PDFTOPPM, ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", file, picture])
    )
    return readFileSync(`${picture}.png`)
  } finally {
    if (!kept) rmSync(directory, { recursive: true, force: true })
  }
}

/** Kroner as a Danish reader reads them, formatted by Node's ICU, not by kasko: 15000 → "15.000 kr." */
export const danishKroner = (kroner: number): string =>
  `${new Intl.NumberFormat("da-DK", { maximumFractionDigits: 0 }).format(kroner)} kr.`

/** The engine's "4.45" kroner as a Danish reader reads them: "4,45 kr." */
export const danishDecimalKroner = (decimal: string): string =>
  `${new Intl.NumberFormat("da-DK", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(decimal))} kr.`
