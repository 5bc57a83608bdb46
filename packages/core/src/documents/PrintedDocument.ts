/**
 * A document as the core writes it and a renderer prints it: a title, sections of paragraphs, lists, label–value
 * facts and tables, in words and figures already formatted for the reader. The core decides what a document says;
 * the renderer (`DocumentRenderer`, PDF in `@kasko/documents`) only how it looks.
 */
import { DANISH, formatKroner, oreOfKroner } from "../pricing/Money.js"

/** One column of a table: its title, and whether its cells are figures (right-aligned). */
export interface TableColumn {
  readonly title: string
  readonly figures?: boolean
  /** Its share of the table's width, relative to the other columns' (1 by default). */
  readonly width?: number
}

/** A document a reader may open: its title, and its URL, printed whole on a line of its own. */
export interface Link {
  readonly title: string
  readonly url: string
}

export type Block =
  | { readonly kind: "paragraph"; readonly text: string }
  | { readonly kind: "list"; readonly items: ReadonlyArray<string> }
  | { readonly kind: "facts"; readonly rows: ReadonlyArray<readonly [label: string, value: string]> }
  | { readonly kind: "links"; readonly links: ReadonlyArray<Link> }
  | {
      readonly kind: "table"
      readonly columns: ReadonlyArray<TableColumn>
      readonly rows: ReadonlyArray<ReadonlyArray<string>>
    }

export interface Section {
  readonly heading: string
  readonly blocks: ReadonlyArray<Block>
}

/** A document the core wrote (an IPID, a quote's document, the privacy policy), ready for a DocumentRenderer to print. */
export interface PrintedDocument {
  /** BCP 47, the language its words are in. */
  readonly language: string
  readonly title: string
  /** The line under the title: whose document, about what. */
  readonly subtitle: string
  readonly sections: ReadonlyArray<Section>
  /** Printed at the foot of every page. */
  readonly footer: string
  /**
   * How each page is numbered at its foot, `{page}` and `{pages}` replaced: "Page {page} of {pages}". Danish
   * ("Side {page} af {pages}") when absent.
   */
  readonly pageNumbers?: string
  /** Printed large across every page when set: `TEST` on a sandbox quote's document, which is never a policy. */
  readonly watermark?: string
  readonly author: string
  /** The instant the document's content is as of (epoch ms): the same document, the same bytes. */
  readonly dated: number
  /**
   * Set when the document is the same every time it carries this key (an IPID of one tariff version): a renderer
   * may keep its bytes and answer them again.
   */
  readonly cacheKey?: string
}

/** A paragraph block. */
export const paragraph = (text: string): Block => ({ kind: "paragraph", text })

/** A bulleted list block. */
export const list = (items: ReadonlyArray<string>): Block => ({ kind: "list", items })

/** A block of label–value rows. */
export const facts = (rows: ReadonlyArray<readonly [string, string]>): Block => ({ kind: "facts", rows })

/** A block of links, each URL whole on its own line: a URL broken over two lines cannot be typed or clicked. */
export const links = (entries: ReadonlyArray<Link>): Block => ({ kind: "links", links: entries })

/** A table block. */
export const table = (columns: ReadonlyArray<TableColumn>, rows: ReadonlyArray<ReadonlyArray<string>>): Block => ({
  kind: "table",
  columns,
  rows
})

/** Whole kroner as a Danish reader reads them: 15000 → "15.000 kr." */
export const danishKroner = (kroner: number): string =>
  `${formatKroner(oreOfKroner(kroner), { ...DANISH, decimals: 0 })} kr.`

/** Kroner with two decimals, from the engine's "1234.50" form: "1.234,50 kr." */
export const danishKronerAndOre = (decimal: string): string =>
  `${formatKroner(oreOfKroner(Number(decimal)), DANISH)} kr.`

const MONTHS = [
  "januar",
  "februar",
  "marts",
  "april",
  "maj",
  "juni",
  "juli",
  "august",
  "september",
  "oktober",
  "november",
  "december"
]

/** A calendar date in Danish words: "2026-03-02" → "2. marts 2026". */
export const danishDate = (date: string): string => {
  const [year, month, day] = date.split("-").map(Number)
  return `${day}. ${MONTHS[(month ?? 1) - 1]} ${year}`
}

// the reader's clock: Danish local time, summer time included; Intl formats a given instant, it reads no clock
const COPENHAGEN = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Copenhagen",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23"
})

/** An instant (epoch ms) in Danish local time: its date (YYYY-MM-DD), hour and minute (two digits each). */
export const copenhagenTime = (epochMillis: number): { date: string; hour: string; minute: string } => {
  const parts = Object.fromEntries(COPENHAGEN.formatToParts(epochMillis).map((part) => [part.type, part.value]))
  return { date: `${parts["year"]}-${parts["month"]}-${parts["day"]}`, hour: parts["hour"]!, minute: parts["minute"]! }
}

/** An instant (epoch ms) as a Danish reader reads it, in Danish local time: "2. marts 2026 kl. 10.00". */
export const danishInstant = (epochMillis: number): string => {
  const { date, hour, minute } = copenhagenTime(epochMillis)
  return `${danishDate(date)} kl. ${hour}.${minute}`
}

/**
 * A short, stable fingerprint of a text (FNV-1a, 32 bits, in hex): what tells one version of a document from
 * another in its cache key and ETag. Not a security measure.
 */
export const fingerprint = (text: string): string => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, "0")
}
