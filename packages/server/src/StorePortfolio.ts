/**
 * The store's quotes as the book of `kasko tariff impact --from-store`, held
 * still across the passes of a target's solve. The first pass lists every
 * quote, a page at a time in quote_id order; each later pass lists only as
 * far as the first pass's last quote_id, and must see the very same quotes.
 * Quote ids are UUID v7 (core's IdGenerator): they begin with their creation
 * time in milliseconds, so quotes created during the solve list after that id
 * and are left out. Within one millisecond the rest of an id is random, and
 * another instance's clock may lag: a quote created then can list inside the
 * book, as a purge can take quotes out of it — a later pass that counts other
 * quotes, or other ids, than the first fails, rather than solve the factor on
 * a book that moved.
 */
import type { QuoteStore } from "@kasko/core"
import { Money } from "@kasko/core/actuarial"
import type { PortfolioRow } from "@kasko/workbench"

/** A page of the store's portfolio: the quotes after `after` in quote_id order, at most `limit` of them. */
export type PortfolioPageReader = (
  after: string | undefined,
  limit: number
) => Promise<ReadonlyArray<QuoteStore.PortfolioQuote>>

/** What a pass that changes the book between passes fails with. */
export class StorePortfolioChanged extends Error {
  override readonly name = "StorePortfolioChanged"
  constructor() {
    super("the store's quotes changed during the solve: run again")
  }
}

/** A digest of the quote ids a pass lists, in order (two lanes of 32-bit multiplicative hashing, ~64 bits). */
class QuoteIdDigest {
  count = 0
  private first = 0xdeadbeef
  private second = 0x41c6ce57

  add(quoteId: string): void {
    this.count++
    // the line break between ids keeps "ab","c" apart from "a","bc"
    for (let index = 0; index <= quoteId.length; index++) {
      const code = index < quoteId.length ? quoteId.charCodeAt(index) : 10
      this.first = Math.imul(this.first ^ code, 2_654_435_761)
      this.second = Math.imul(this.second ^ code, 1_597_334_677)
    }
  }

  equals(other: QuoteIdDigest): boolean {
    return this.count === other.count && this.first === other.first && this.second === other.second
  }
}

const portfolioRowOf = (quote: QuoteStore.PortfolioQuote, line: number): PortfolioRow => ({
  line,
  policy_id: quote.quote_id,
  product_name: quote.product_name,
  feature: quote.feature,
  parameters: quote.parameters,
  weight: "",
  current_premium: Money.formatKroner(quote.annual_total_ore)
})

/**
 * The rows of the store's quotes for each pass of an impact test (`PortfolioSource`'s `rows`): the
 * first pass's book, and on every later pass the same book or `StorePortfolioChanged`.
 */
export const storePortfolio = (
  readPage: PortfolioPageReader,
  pageSize = 5_000
): (() => AsyncGenerator<ReadonlyArray<PortfolioRow>>) => {
  let book: { readonly last: string | undefined; readonly digest: QuoteIdDigest } | undefined
  return async function* () {
    const first = book
    const digest = new QuoteIdDigest()
    let after: string | undefined
    let last: string | undefined
    // an empty first book stays empty: every quote listed later came after it
    while (first === undefined || first.last !== undefined) {
      const page = await readPage(after, pageSize)
      const inBook = first === undefined ? page : page.filter((quote) => quote.quote_id <= first.last!)
      if (inBook.length > 0) {
        for (const quote of inBook) digest.add(quote.quote_id)
        if (first !== undefined && digest.count > first.digest.count) throw new StorePortfolioChanged()
        const offset = digest.count - inBook.length
        yield inBook.map((quote, index) => portfolioRowOf(quote, offset + index + 1))
        last = inBook.at(-1)!.quote_id
      }
      if (page.length < pageSize || inBook.length < page.length) break
      after = page.at(-1)!.quote_id
    }
    if (first === undefined) book = { last, digest }
    else if (!digest.equals(first.digest)) throw new StorePortfolioChanged()
  }
}
