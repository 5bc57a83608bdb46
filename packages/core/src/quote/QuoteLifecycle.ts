/**
 * The quote state machine (spec §3, DESIGN §2): await_activation → activated;
 * in either state a quote exists for the caller while now < created_at + 30 days.
 * Every quote answer says which state and until when (`status`, `expires_at`).
 */
import { dateTimeOfMillis } from "../input/CalendarDate.js"
import type { ActivatedQuote, Quote, QuoteActivation, QuoteContent } from "./Quote.js"
import type { DocumentLinksShape } from "../ports/DocumentLinks.js"
import type { PurgeCutoffs, StoredQuote } from "../ports/QuoteStore.js"
import { productVariantOfQuotedName } from "../product/ProductCatalogue.js"

const QUOTE_VALIDITY_DAYS = 30
export const QUOTE_VALIDITY_MILLIS = QUOTE_VALIDITY_DAYS * 24 * 60 * 60 * 1000

export type QuoteState = "await_activation" | "activated"

/**
 * What a purge at `now` may delete: every quote that has expired, and activated
 * ones only once they have also been kept `activatedRetentionMillis` past expiry.
 */
export const purgeCutoffs = (now: number, activatedRetentionMillis: number): PurgeCutoffs => ({
  awaitingCreatedAtOrBefore: now - QUOTE_VALIDITY_MILLIS,
  activatedCreatedAtOrBefore: now - QUOTE_VALIDITY_MILLIS - activatedRetentionMillis
})

/** The instant a quote stops existing for the caller. */
export const expiresAt = (quote: Pick<StoredQuote, "created_at">): number => quote.created_at + QUOTE_VALIDITY_MILLIS

/** True from the instant 30 × 24 h after creation, whatever the state. */
export const isExpired = (quote: Pick<StoredQuote, "created_at">, now: number): boolean => now >= expiresAt(quote)

/** What retrieving a quote answers: the §2.9 form while awaiting activation, the §2.10 form after. */
export type RetrievedQuote =
  | { readonly state: "await_activation"; readonly quote: Quote }
  | { readonly state: "activated"; readonly quote: ActivatedQuote }

// The JSON text a value was stored as, for the values a SQL store read or wrote: answering it as it is spares
// parsing it and encoding it again (~10 µs of a 1.9 KB quote on Node 24, a tenth of a retrieval's CPU)
const jsonTexts = new WeakMap<object, string>()

/** Records that `value` is exactly `text` as JSON (its `JSON.stringify`); answers `value`. */
export const keepJsonText = <A extends object>(value: A, text: string): A => {
  jsonTexts.set(value, text)
  return value
}

/** `JSON.stringify(value)` as a store kept it, when one did; undefined otherwise. */
export const jsonTextOf = (value: object): string | undefined => jsonTexts.get(value)

/** A stored quote's `quote` (its content) as JSON text: the text a store kept, or encoded now and kept for the next asker. */
export const quoteText = (stored: StoredQuote): string => {
  const kept = quoteTexts.get(stored) ?? jsonTexts.get(stored.quote)
  if (kept !== undefined) return kept
  const text = JSON.stringify(stored.quote)
  jsonTexts.set(stored.quote, text)
  return text
}

// for stored quotes read from a row, and their retrieved forms: the JSON text of their `quote` (not of
// themselves), kept before anything parsed it
const quoteTexts = new WeakMap<{ readonly quote: object }, string>()

/** Records that `holder.quote`, parsed or not yet, is exactly `text` as JSON; answers `holder`. */
export const keepQuoteText = <A extends { readonly quote: object }>(holder: A, text: string): A => {
  quoteTexts.set(holder, text)
  return holder
}

/** `JSON.stringify(holder.quote)` as a store kept it, when one did (a retrieval's §2.9 form: the kept content and its state). */
export const quoteTextOf = (holder: { readonly quote: object }): string | undefined => quoteTexts.get(holder)

/**
 * A quote's links as answers give them: a stored quote keeps the links it was created with, and every answer
 * gives the ones the configuration names now (`DocumentLinks`), so that a changed configuration is seen by every
 * quote. `links` undefined keeps the stored ones (the events a store writes are a record of their moment).
 */
interface CurrentLinks {
  readonly ipidHref: string | undefined
  readonly privacyPolicyHref: string
}

const currentLinks = (quotedProductName: string, links: DocumentLinksShape): CurrentLinks => {
  const product = productVariantOfQuotedName(quotedProductName)
  return {
    ipidHref: product === undefined ? undefined : links.ipidHref(product.product_name, product.variant),
    privacyPolicyHref: links.privacyPolicyHref()
  }
}

/** The content with the links `links` names now; the content itself when it has them already. */
export const relinkedContent = (content: QuoteContent, links: DocumentLinksShape | undefined): QuoteContent => {
  if (links === undefined) return content
  const current = currentLinks(content.product.product_name, links)
  const ipidHref = current.ipidHref
  const policiesLinked = ipidHref === undefined || content.policies.every((policy) => policy.ipid_href === ipidHref)
  if (policiesLinked && content.privacy.policy_href === current.privacyPolicyHref) return content
  return {
    ...content,
    policies: policiesLinked
      ? content.policies
      : content.policies.map((policy) => ({ ...policy, ipid_href: ipidHref })),
    privacy: { policy_href: current.privacyPolicyHref }
  }
}

const PRODUCT_NAME_KEY = '"product":{"product_name":'
const IPID_HREF_KEY = '"ipid_href":'
const POLICY_HREF_KEY = '"privacy":{"policy_href":'
// printable ASCII but `"` and `\`, as a URL normally is: JSON.stringify leaves such a string as it is, in quotes
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

const jsonString = (value: string): string => (PLAIN_ASCII.test(value) ? `"${value}"` : JSON.stringify(value))

/** Where the JSON string starting at `start` (its opening quote) ends: the index after its closing quote. */
const endOfJsonString = (text: string, start: number): number => {
  let index = start + 1
  while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1
  return index + 1
}

/** `text` with the JSON string value after `key`'s occurrence at `at` replaced by `value`'s JSON (`text` when it is it). */
const withStringAt = (text: string, at: number, key: string, value: string): string => {
  const start = at + key.length
  const end = endOfJsonString(text, start)
  const encoded = jsonString(value)
  return text.slice(start, end) === encoded ? text : `${text.slice(0, start)}${encoded}${text.slice(end)}`
}

/**
 * `JSON.stringify(relinkedContent(JSON.parse(text), links))`, from the content's text without parsing it (every
 * retrieval answers this way): the links are strings at keys no client text can forge (a client's `"` is escaped
 * in the text), and a quote has one policy (`quoteOf`, spec §2.9). The same text when the links are current.
 */
export const relinkedText = (text: string, links: DocumentLinksShape | undefined): string => {
  if (links === undefined) return text
  const productAt = text.indexOf(PRODUCT_NAME_KEY)
  if (productAt === -1) return text
  const nameStart = productAt + PRODUCT_NAME_KEY.length
  const nameText = text.slice(nameStart, endOfJsonString(text, nameStart))
  const quotedName = nameText.includes("\\") ? (JSON.parse(nameText) as string) : nameText.slice(1, -1)
  const current = currentLinks(quotedName, links)
  const ipidAt = current.ipidHref === undefined ? -1 : text.indexOf(IPID_HREF_KEY, nameStart)
  const withIpid = ipidAt === -1 ? text : withStringAt(text, ipidAt, IPID_HREF_KEY, current.ipidHref!)
  // privacy is the content's last member: its one occurrence is the last
  const privacyAt = withIpid.lastIndexOf(POLICY_HREF_KEY)
  return privacyAt === -1 ? withIpid : withStringAt(withIpid, privacyAt, POLICY_HREF_KEY, current.privacyPolicyHref)
}

/** A quote awaiting activation as every answer gives it (spec §2.9): its content, then its status and expiry. */
export const awaitingQuote = (stored: StoredQuote, links?: DocumentLinksShape): Quote => ({
  ...relinkedContent(stored.quote, links),
  status: "await_activation",
  expires_at: dateTimeOfMillis(expiresAt(stored))
})

// `JSON.stringify(awaitingQuote(stored))` from the content's text: the state goes in before its closing brace, so
// an answer costs no parse and no second encoding of the ~2 KB content (the expiry needs no escaping)
const awaitingText = (contentText: string, expiresAtText: string): string =>
  `${contentText.slice(0, -1)},"status":"await_activation","expires_at":"${expiresAtText}"}`

/** `JSON.stringify(awaitingQuote(stored))`, from the content's text (kept, or encoded now and kept). */
export const awaitingQuoteText = (stored: StoredQuote): string =>
  awaitingText(quoteText(stored), dateTimeOfMillis(expiresAt(stored)))

/**
 * What creating a quote answers (its retry under an Idempotency-Key too): `awaitingQuote(stored, links)`, its
 * JSON text kept (`jsonTextOf`) when a store kept the content's.
 */
export const createdQuote = (stored: StoredQuote, links?: DocumentLinksShape): Quote => {
  const text = quoteTexts.get(stored) ?? jsonTexts.get(stored.quote)
  const quote = awaitingQuote(stored, links)
  return text === undefined ? quote : keepJsonText(quote, awaitingText(relinkedText(text, links), quote.expires_at))
}

/** What activating a quote answers, the first time and every time after. */
export const activationOf = (stored: StoredQuote): QuoteActivation => ({
  status: "activated",
  expires_at: dateTimeOfMillis(expiresAt(stored))
})

// Stored quotes read from a store, and their retrievals, parse what they hold only when it is read, through
// getters shared by all of them and state in private fields: getters made per object (closures over its text)
// kept each retrieval's row alive past the young collections after it — under a GET load ~5 MB promoted to the
// old generation a collection against 25 KB (bench/README.md, issue 29's third step) — and so did the state
// kept in a WeakMap or in a property defined on each. The objects stay plain (Object.prototype): their private
// fields are added to an object literal by a class whose constructor answers the literal.

/** Answers the object it is given, so that a subclass adds its private fields, and its getters, to that object. */
class OnPlainObject {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point of it (see above)
    return target
  }
}

const COPIED = "reads its text from the object a store made: a copy of its property descriptors has none"

/** A stored quote's JSON texts, and what was parsed of them. */
class StoredTexts extends OnPlainObject {
  readonly #quoteJson: string
  readonly #worksheetJson: string
  #quote: StoredQuote["quote"] | undefined
  #worksheet: StoredQuote["worksheet"] | undefined

  constructor(target: object, quoteJson: string, worksheetJson: string) {
    super(target)
    this.#quoteJson = quoteJson
    this.#worksheetJson = worksheetJson
    Object.defineProperties(this, StoredTexts.#properties)
  }

  static readonly #properties: PropertyDescriptorMap = {
    quote: {
      enumerable: true,
      get(this: object) {
        if (!(#quoteJson in this)) throw new TypeError(`a stored quote's quote ${COPIED}`)
        const texts = this as StoredTexts
        texts.#quote ??= keepJsonText(JSON.parse(texts.#quoteJson) as StoredQuote["quote"], texts.#quoteJson)
        return texts.#quote
      }
    },
    worksheet: {
      enumerable: true,
      get(this: object) {
        if (!(#worksheetJson in this)) throw new TypeError(`a stored quote's worksheet ${COPIED}`)
        const texts = this as StoredTexts
        texts.#worksheet ??= JSON.parse(texts.#worksheetJson) as StoredQuote["worksheet"]
        return texts.#worksheet
      }
    }
  }
}

/**
 * A stored quote from what a store read: its fields (a fresh object, which this completes and answers), and the
 * JSON texts of its quote and worksheet, each parsed only when read — a retrieval answers the quote's text as it
 * is (`quoteTextOf`), activation reads neither.
 */
export const storedQuoteOfTexts = (
  fields: Omit<StoredQuote, "quote" | "worksheet">,
  quoteJson: string,
  worksheetJson: string
): StoredQuote => {
  new StoredTexts(fields, quoteJson, worksheetJson)
  return keepQuoteText(fields as StoredQuote, quoteJson)
}

/** A retrieval awaiting activation whose quote is built only when read (its answer is the kept text). */
class RetrievalOfStored extends OnPlainObject {
  readonly #stored: StoredQuote
  readonly #links: DocumentLinksShape | undefined
  #quote: Quote | undefined

  constructor(target: object, stored: StoredQuote, links: DocumentLinksShape | undefined) {
    super(target)
    this.#stored = stored
    this.#links = links
    Object.defineProperties(this, RetrievalOfStored.#properties)
  }

  static readonly #properties: PropertyDescriptorMap = {
    quote: {
      enumerable: true,
      get(this: object) {
        if (!(#stored in this)) throw new TypeError(`a retrieval's quote ${COPIED}`)
        const retrieval = this as RetrievalOfStored
        retrieval.#quote ??= awaitingQuote(retrieval.#stored, retrieval.#links)
        return retrieval.#quote
      }
    }
  }
}

const awaitingRetrieval = (stored: StoredQuote, links: DocumentLinksShape | undefined): RetrievedQuote => {
  const retrieval = { state: "await_activation" as const }
  new RetrievalOfStored(retrieval, stored, links)
  return retrieval as RetrievedQuote
}

/** What retrieving a stored quote answers, with the links `links` names now (the stored ones when undefined). */
export const retrievedForm = (stored: StoredQuote, links?: DocumentLinksShape): RetrievedQuote => {
  if (stored.activated_at === null) {
    // a store that kept the content's JSON text answers that text and the state, unparsed (a row's is kept on
    // the stored quote, before its content is parsed: read it first)
    const text = quoteTexts.get(stored) ?? jsonTexts.get(stored.quote)
    if (text === undefined) return { state: "await_activation", quote: awaitingQuote(stored, links) }
    return keepQuoteText<RetrievedQuote>(
      awaitingRetrieval(stored, links),
      awaitingText(relinkedText(text, links), dateTimeOfMillis(expiresAt(stored)))
    )
  }
  const content = relinkedContent(stored.quote, links)
  return {
    state: "activated",
    quote: {
      ...content,
      status: "activated",
      expires_at: dateTimeOfMillis(expiresAt(stored)),
      polices: content.policies,
      quote_number: stored.quote_number,
      created_at: dateTimeOfMillis(stored.created_at),
      activated_at: dateTimeOfMillis(stored.activated_at)
    }
  }
}
