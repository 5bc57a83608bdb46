/**
 * The quote state machine (spec §3, DESIGN §2): await_activation → activated;
 * in either state a quote exists for the caller while now < created_at + 30 days
 * (+ 7 days for a sandbox's quote, which is purged then: issue 47).
 * Every quote answer says which state and until when (`status`, `expires_at`).
 * @module
 */
import { dateTimeOfMillis } from "../input/CalendarDate.js"
import type { DocumentLinksShape } from "../ports/DocumentLinks.js"
import type { PurgeCutoffs, StoredQuote, StoredQuoteWithoutWorksheet } from "../ports/QuoteStore.js"
import type { Catalogue } from "../product/ProductCatalogue.js"
import { withCurrentLinks, type ActivatedQuote, type Quote, type QuoteActivation } from "./Quote.js"
import { isSandboxOwner, SANDBOX_RETENTION_MILLIS } from "../partner/Sandbox.js"

const QUOTE_VALIDITY_DAYS = 30
/** How long a quote lives from its creation: 30 days, activated or not; then it expires and may be purged. */
export const QUOTE_VALIDITY_MILLIS = QUOTE_VALIDITY_DAYS * 24 * 60 * 60 * 1000

/** A quote's state as answers show it: `await_activation` until activated, then `activated`. */
export type QuoteState = "await_activation" | "activated"

/**
 * The instant a quote stops existing for the caller: 30 × 24 h after its creation, or 7 × 24 h for a sandbox's
 * quote (`Sandbox.isSandboxOwner(partner_id)`), when it is purged (`Sandbox.SANDBOX_RETENTION_MILLIS`).
 */
export const expiresAt = (quote: Pick<StoredQuote, "created_at" | "partner_id">): number =>
  quote.created_at + (isSandboxOwner(quote.partner_id) ? SANDBOX_RETENTION_MILLIS : QUOTE_VALIDITY_MILLIS)

/** True from the instant the quote expires (`expiresAt`: 30 × 24 h after creation, a sandbox's 7), whatever the state. */
export const isExpired = (quote: Pick<StoredQuote, "created_at" | "partner_id">, now: number): boolean =>
  now >= expiresAt(quote)

/**
 * What a purge at `now` may delete: every quote that has expired, and activated
 * ones only once they have also been kept `activatedRetentionMillis` past expiry.
 */
export const purgeCutoffs = (now: number, activatedRetentionMillis: number): PurgeCutoffs => ({
  awaitingCreatedAtOrBefore: now - QUOTE_VALIDITY_MILLIS,
  activatedCreatedAtOrBefore: now - QUOTE_VALIDITY_MILLIS - activatedRetentionMillis,
  sandboxCreatedAtOrBefore: now - SANDBOX_RETENTION_MILLIS
})

/**
 * The transition of activation at `now`: an awaiting quote becomes activated; an activated one stays as it was
 * (the first activation's time is kept, DESIGN §2).
 */
export const activated = (quote: StoredQuote, now: number): StoredQuote =>
  quote.activated_at === null ? { ...quote, activated_at: now } : quote

/** What retrieving a quote answers: the §2.9 form while awaiting activation, the §2.10 form after. */
export type RetrievedQuote =
  | { readonly state: "await_activation"; readonly quote: Quote }
  | { readonly state: "activated"; readonly quote: ActivatedQuote }

/**
 * A quote awaiting activation as every answer gives it (spec §2.9): its content with the links `links` names now
 * (the stored ones when undefined), then its status and expiry.
 */
export const awaitingQuote = (
  stored: StoredQuoteWithoutWorksheet,
  links?: DocumentLinksShape,
  catalogue?: Catalogue
): Quote => ({
  ...withCurrentLinks(stored.quote, links, catalogue),
  status: "await_activation",
  expires_at: dateTimeOfMillis(expiresAt(stored))
})

/** An activated quote as retrieving it answers (spec §2.10); `stored` must be activated. */
const activatedQuote = (
  stored: StoredQuoteWithoutWorksheet,
  activatedAt: number,
  links?: DocumentLinksShape,
  catalogue?: Catalogue
): ActivatedQuote => {
  const content = withCurrentLinks(stored.quote, links, catalogue)
  return {
    ...content,
    status: "activated",
    expires_at: dateTimeOfMillis(expiresAt(stored)),
    polices: content.policies,
    quote_number: stored.quote_number,
    created_at: dateTimeOfMillis(stored.created_at),
    activated_at: dateTimeOfMillis(activatedAt)
  }
}

/** What retrieving a stored quote answers, with the links `links` names now (the stored ones when undefined). */
export const retrievedForm = (
  stored: StoredQuoteWithoutWorksheet,
  links?: DocumentLinksShape,
  catalogue?: Catalogue
): RetrievedQuote =>
  stored.activated_at === null
    ? { state: "await_activation", quote: awaitingQuote(stored, links, catalogue) }
    : { state: "activated", quote: activatedQuote(stored, stored.activated_at, links, catalogue) }

/** The quote's state and expiry, as activation answers them when asked for a representation. */
export const activationOf = (stored: StoredQuoteWithoutWorksheet): QuoteActivation => ({
  status: "activated",
  expires_at: dateTimeOfMillis(expiresAt(stored))
})
