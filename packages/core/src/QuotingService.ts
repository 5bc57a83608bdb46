/**
 * kasko's public API as Effect programs: read a product, price an offer,
 * explain a price, create, retrieve and activate a quote. Time comes from
 * Effect's Clock; storage and ids from their ports.
 * @module
 */
import { Clock, Context, Effect, Option, Result } from "effect"
import { calendarDateOfMillis } from "./input/CalendarDate.js"
import {
  IdempotencyKeyReused,
  ProductNotFound,
  QuoteNotFound,
  TariffNotInForce,
  ConstraintViolation,
  type StorageUnavailable
} from "./Errors.js"
import { IdGenerator } from "./ports/IdGenerator.js"
import { DocumentLinks, type DocumentLinksShape } from "./ports/DocumentLinks.js"
import { DocumentRenderer, type RenderedDocument } from "./ports/DocumentRenderer.js"
import { productInformationDocument } from "./documents/ProductInformation.js"
import { PRIVACY_POLICIES } from "./documents/PrivacyPolicy.js"
import { DEFAULT_LANGUAGE, type Language, LANGUAGES } from "./Language.js"
import { inLanguage } from "./product/ProductTranslations.js"
import { quoteDocument } from "./documents/QuoteDocument.js"
import { isVariant } from "./product/Variant.js"
import { isQuoteId } from "./quote/QuoteIdentifiers.js"
import { decodeOfferRequest, offerOf, type PriceOffer } from "./quote/Offer.js"
import {
  price,
  priceOfferRequest,
  pricingRequestOf,
  type PricedOffer,
  type PriceComputation
} from "./pricing/Pricing.js"
import { priceInterpreted } from "./pricing/ReferenceInterpreter.js"
import { worksheetOf, type RatingWorksheet } from "./pricing/RatingWorksheet.js"
import { tariffInForce } from "./pricing/Tariff.js"
import { TariffBook } from "./ports/TariffBook.js"
import { type Catalogue, type ProductDefinition, shipped } from "./product/ProductCatalogue.js"
import type { ProductSelection } from "./product/ProductSelection.js"
import { quoteOf, type Quote, type QuoteActivation } from "./quote/Quote.js"
import {
  activationOf,
  awaitingQuote,
  isExpired,
  purgeCutoffs,
  retrievedForm,
  type RetrievedQuote
} from "./quote/QuoteLifecycle.js"
import { decodeQuoteRequest } from "./quote/QuoteRequest.js"
import { maySell, productsShown, type ProductsSold, unavailableProduct } from "./partner/PartnerProducts.js"
import { isSandboxOwner, SANDBOX_NUMBER_PREFIX } from "./partner/Sandbox.js"
import { QuoteStore, type StoredQuote } from "./ports/QuoteStore.js"

/**
 * The catalogue of the TariffBook in the context: the products its tariffs price. A program that only reads what is
 * stored (retrieval, documents) needs no tariffs, and reads a quote of the shipped catalogue when none is provided.
 */
const catalogueIn = (context: Context.Context<never>): Catalogue =>
  Context.getOrElse(context as Context.Context<TariffBook>, TariffBook, () => undefined)?.catalogue ?? shipped

/**
 * The definition of a product (spec §2.1) as its version in force today defines it: of the catalogue of the
 * TariffBook provided, the shipped one if none is, in a language (Danish unless given: its titles as the product
 * document's translation words them). A product none of whose versions is in force yet is not found; nor is one
 * the partner may not sell, given the `products` it sells (all when undefined). A language kasko does not write is a
 * ConstraintViolation on `language`, not an answer in Danish: a caller without types (the promise facade's, an MCP
 * client's) may pass any string.
 */
export const getProduct = (
  productName: string,
  language: Language = DEFAULT_LANGUAGE,
  products?: ProductsSold
): Effect.Effect<ProductDefinition, ProductNotFound | ConstraintViolation> =>
  Effect.contextWith(
    (context: Context.Context<never>): Effect.Effect<ProductDefinition, ProductNotFound | ConstraintViolation> => {
      if (!LANGUAGES.includes(language))
        return Effect.fail(
          new ConstraintViolation({ violations: [{ field: "language", message: "must be da or en" }] })
        )
      const today = calendarDateOfMillis(Context.get(context, Clock.Clock).currentTimeMillisUnsafe())
      const catalogue = inLanguage(catalogueIn(context).on(today), language)
      const definition = maySell(products, productName) ? catalogue.definition(productName) : undefined
      return definition === undefined
        ? Effect.fail(
            new ProductNotFound({
              product_name: productName,
              products: productsShown(products, catalogue.productNames)
            })
          )
        : Effect.succeed(definition)
    }
  )

/**
 * The span pricing runs in: what a tracer sees of it (and metrics time). An
 * offer request is decoded and priced in one pass, so its span covers both.
 */
export const PRICING_SPAN = "kasko.pricing"

/** Request-path spans skip Effect's stack capture (an Error per span), which nothing exported would read. */
const NO_STACK = { captureStackTrace: false } as const

/** The span a quote request's decoding runs in. */
const DECODING_SPAN = "kasko.decode"

/**
 * `effect` in the span `name` when a tracer was provided (metrics, an exporter, a test's). With none, Effect's
 * default tracer would keep a span nobody can read, at ~1.2 µs: most of what an offer's Effect program costs
 * over the plain pricing function (bench section 1).
 */
const traced = <A, E, R>(effect: Effect.Effect<A, E, R>, name: string): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) =>
    fiber.cache.tracer === undefined || !fiber.cache.tracerEnabled ? effect : Effect.withSpan(effect, name, NO_STACK)
  )

/** Prices a decoded selection with the book's tariffs: synchronously when compiled, through json-rules-engine when asked. */
const priceSelection = (
  book: TariffBook["Service"],
  selection: ProductSelection,
  pricingDate: string
): Effect.Effect<PriceComputation, TariffNotInForce> => {
  const request = pricingRequestOf(selection, pricingDate)
  if (book.rules === "compiled") return Effect.fromResult(price(book.tariffs, request))
  const tariff = tariffInForce(book.tariffs, request.product_name, pricingDate)
  return tariff === undefined
    ? Effect.fail(new TariffNotInForce({ product_name: request.product_name, pricing_date: pricingDate }))
    : Effect.promise(() => priceInterpreted(tariff, request))
}

/**
 * Decodes an offer request and prices it on today's tariff, as numbers — one
 * service lookup and one clock read around the plain pricing functions,
 * because every offer request takes this path.
 */
const pricedOfferRequest = <A>(
  input: unknown,
  answer: (priced: PricedOffer, links: DocumentLinksShape) => A,
  products: ProductsSold
): Effect.Effect<A, ConstraintViolation | TariffNotInForce, TariffBook> => {
  const unavailable = unavailableProduct(products, input)
  if (unavailable !== undefined) return Effect.fail(unavailable)
  // the book and the clock read from the fiber's context in one step, the answer made in the same step when the
  // tariff is compiled: each step of an Effect costs more than the plain pricing it wraps
  return Effect.contextWith(
    (context: Context.Context<TariffBook>): Effect.Effect<A, ConstraintViolation | TariffNotInForce> => {
      const book = Context.get(context, TariffBook)
      const links = Context.get(context as Context.Context<never>, DocumentLinks)
      const pricingDate = calendarDateOfMillis(Context.get(context, Clock.Clock).currentTimeMillisUnsafe())
      if (book.rules === "compiled") {
        const priced = priceOfferRequest(book.tariffs, input, pricingDate, book.catalogue)
        return Result.isFailure(priced) ? Effect.fail(priced.failure) : Effect.succeed(answer(priced.success, links))
      }
      return Result.match(decodeOfferRequest(input, pricingDate, book.catalogue), {
        onFailure: Effect.fail,
        onSuccess: (request) =>
          Effect.map(priceSelection(book, request.product, pricingDate), (computed) =>
            answer({ request, price: computed }, links)
          )
      })
    }
  ).pipe((priced) => traced(priced, PRICING_SPAN))
}

/**
 * The rating worksheet behind the price of an offer request `{product}`: every line, loading, charge and rounding.
 * A product the partner may not sell, given the `products` it sells, is a violation on `product.product_name`.
 */
export const explainPrice = (
  input: unknown,
  products?: ProductsSold
): Effect.Effect<RatingWorksheet, ConstraintViolation | TariffNotInForce, TariffBook> =>
  pricedOfferRequest(input, (priced) => worksheetOf(priced.price), products)

/**
 * An anonymous price offer from an offer request `{product}` (spec §2.6); nothing is stored. A product the partner
 * may not sell, given the `products` it sells (all when undefined), is a violation on `product.product_name`.
 */
export const createOffer = (
  input: unknown,
  products?: ProductsSold
): Effect.Effect<PriceOffer, ConstraintViolation | TariffNotInForce, TariffBook> =>
  pricedOfferRequest(input, (priced, links) => offerOf(priced.request, priced.price, links), products)

/** How long an Idempotency-Key answers with the quote it first created. */
const IDEMPOTENCY_KEY_VALIDITY_MILLIS = 24 * 60 * 60 * 1000

/** An Idempotency-Key with the fingerprint of the request that carries it. */
interface IdempotentRequest {
  readonly key: string
  readonly fingerprint: string
}

/**
 * Creates a quote for the partner from a quote request (spec §2.8 → §2.9),
 * valid for 30 days (a sandbox's quote, `partnerId` a `Sandbox.sandboxOwnerOf`, 7 days).
 * With an idempotency key, a retry of the same request
 * within 24 hours answers what the first one did (its status too), and creates none;
 * the same key with another request fails with IdempotencyKeyReused. A product the partner may not sell, given the
 * `products` it sells (all when undefined), is a violation on `product.product_name`.
 */
export const createQuote = (
  partnerId: string,
  input: unknown,
  idempotency?: IdempotentRequest,
  products?: ProductsSold
): Effect.Effect<
  Quote,
  ConstraintViolation | IdempotencyKeyReused | TariffNotInForce | StorageUnavailable,
  TariffBook | QuoteStore | IdGenerator
> =>
  Effect.gen(function* () {
    const unavailable = unavailableProduct(products, input)
    if (unavailable !== undefined) return yield* unavailable
    const now = yield* Clock.currentTimeMillis
    const pricingDate = calendarDateOfMillis(now)
    const book = yield* TariffBook
    const request = yield* traced(
      Effect.fromResult(decodeQuoteRequest(input, pricingDate, book.catalogue)),
      DECODING_SPAN
    )
    const worksheet = worksheetOf(yield* traced(priceSelection(book, request.product, pricingDate), PRICING_SPAN))
    const ids = yield* IdGenerator
    const links = yield* DocumentLinks
    // a sandbox quote's numbers cannot be taken for real ones
    const numbered = isSandboxOwner(partnerId) ? (number: string) => `${SANDBOX_NUMBER_PREFIX}${number}` : String
    // named and coded by the product's version in force, which the request was decoded against
    const quote = quoteOf(
      request,
      worksheet,
      { quote_id: yield* ids.quoteId, policy_number: numbered(yield* ids.policyNumber) },
      links,
      book.catalogue.on(pricingDate)
    )
    const stored: StoredQuote = {
      quote_id: quote.quote_id,
      partner_id: partnerId,
      quote_number: numbered(yield* ids.quoteNumber),
      created_at: now,
      activated_at: null,
      tariff_version: worksheet.tariff_version,
      quote,
      worksheet
    }
    const store = yield* QuoteStore
    if (idempotency === undefined) {
      yield* store.insert(stored)
      return awaitingQuote(stored, links, book.catalogue)
    }
    const earlier = yield* store.insertIdempotent(stored, {
      ...idempotency,
      unused_before: now - IDEMPOTENCY_KEY_VALIDITY_MILLIS
    })
    if (Option.isNone(earlier)) return awaitingQuote(stored, links, book.catalogue)
    if (earlier.value.fingerprint !== idempotency.fingerprint)
      return yield* new IdempotencyKeyReused({ idempotency_key: idempotency.key })
    // a retry is answered what the first request was, activated since or not: the answer of a creation
    return awaitingQuote(earlier.value.quote, links, book.catalogue)
  })

/**
 * The partner's live quote, or QuoteNotFound: unknown, malformed id, another partner's, or expired (30 days old, a
 * sandbox's quote 7: `isExpired`). Read by `find`, or without its worksheet by `findWithoutWorksheet`.
 */
const liveQuoteBy =
  <Q extends { readonly created_at: number; readonly partner_id: string }>(
    read: (
      store: QuoteStore["Service"]
    ) => (partnerId: string, quoteId: string) => Effect.Effect<Option.Option<Q>, StorageUnavailable>
  ) =>
  (
    partnerId: string,
    quoteId: string,
    now: number
  ): Effect.Effect<Q, QuoteNotFound | StorageUnavailable, QuoteStore> => {
    // built only when needed: an error captures a stack trace, a fifth of a retrieval's time
    const notFound = () => new QuoteNotFound({ quote_id: quoteId })
    if (!isQuoteId(quoteId)) return Effect.fail(notFound())
    return QuoteStore.use((store) =>
      Effect.flatMap(read(store)(partnerId, quoteId), (found) =>
        Option.isNone(found) || isExpired(found.value, now) ? Effect.fail(notFound()) : Effect.succeed(found.value)
      )
    )
  }
const findLiveQuote = liveQuoteBy((store) => store.find)
const findLiveQuoteWithoutWorksheet = liveQuoteBy((store) => store.findWithoutWorksheet)

/** Retrieves a quote: the §2.9 form while awaiting activation, the §2.10 form after; its links as configured now. */
export const getQuote = (
  partnerId: string,
  quoteId: string
): Effect.Effect<RetrievedQuote, QuoteNotFound | StorageUnavailable, QuoteStore> =>
  // a chain, not a generator: retrieval is the hottest read, and each generator step costs a resumption
  Effect.contextWith((context: Context.Context<never>) => {
    const links = Context.get(context, DocumentLinks)
    const now = Context.get(context, Clock.Clock).currentTimeMillisUnsafe()
    const catalogue = catalogueIn(context)
    return Effect.map(findLiveQuoteWithoutWorksheet(partnerId, quoteId, now), (stored) =>
      retrievedForm(stored, links, catalogue)
    )
  })

/**
 * Activates a quote; activating an activated quote changes nothing. Never re-prices. Answers the quote's
 * state and expiry, the same every time.
 */
export const activateQuote = (
  partnerId: string,
  quoteId: string
): Effect.Effect<QuoteActivation, QuoteNotFound | StorageUnavailable, QuoteStore> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const live = yield* findLiveQuoteWithoutWorksheet(partnerId, quoteId, now)
    if (live.activated_at !== null) return activationOf(live)
    const store = yield* QuoteStore
    const activated = yield* store.markActivated(partnerId, quoteId, now)
    if (Option.isNone(activated)) return yield* new QuoteNotFound({ quote_id: quoteId })
    return activationOf(activated.value)
  })

/** The rating worksheet a stored quote was priced with. */
export const explainQuote = (
  partnerId: string,
  quoteId: string
): Effect.Effect<RatingWorksheet, QuoteNotFound | StorageUnavailable, QuoteStore> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    return (yield* findLiveQuote(partnerId, quoteId, now)).worksheet
  })

/**
 * Deletes expired quotes from storage (retrieval never serves them anyway);
 * activated quotes are kept `activatedRetentionMillis` longer; sandbox quotes,
 * activated or not, 7 days from their creation. Answers how many were deleted.
 * Run it periodically.
 */
export const purgeExpiredQuotes = (
  activatedRetentionMillis: number
): Effect.Effect<number, StorageUnavailable, QuoteStore> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const store = yield* QuoteStore
    return yield* store.purge(purgeCutoffs(now, activatedRetentionMillis))
  })

/** A document as rendered, with the version that tells it apart from its other versions (an ETag's). */
export interface VersionedDocument {
  readonly document: RenderedDocument
  readonly version: string
}

/**
 * A product variant's information document (IPID), from the catalogue and the tariff in force: made and
 * rendered once per tariff version, variant and language (Danish unless given; again only when the charges in force
 * change), its version (an ETag's) the same until the tariff or its words change.
 * Unknown product or variant: ProductNotFound.
 */
export const getProductInformation = (
  productName: string,
  variant: string,
  language: Language = DEFAULT_LANGUAGE
): Effect.Effect<VersionedDocument, ProductNotFound | TariffNotInForce, TariffBook | DocumentRenderer> =>
  Effect.gen(function* () {
    const book = yield* TariffBook
    const pricingDate = calendarDateOfMillis(yield* Clock.currentTimeMillis)
    const catalogue = book.catalogue.on(pricingDate)
    const definition = catalogue.definition(productName)
    // the variant is named only of a product that exists: of another, the product is what is not found
    if (definition === undefined)
      return yield* new ProductNotFound({ product_name: productName, products: catalogue.productNames })
    if (!isVariant(variant)) return yield* new ProductNotFound({ product_name: productName, variant })
    const tariff = tariffInForce(book.tariffs, definition.product_name, pricingDate)
    if (tariff === undefined)
      return yield* new TariffNotInForce({ product_name: definition.product_name, pricing_date: pricingDate })
    const printed = productInformationDocument(tariff, variant, pricingDate, catalogue, language)
    const renderer = yield* DocumentRenderer
    return { document: yield* renderer.render(printed), version: printed.cacheKey! }
  })

/** The insurer's privacy policy in a language, as kasko serves it when the insurer keeps none at a URL of its own. */
export const getPrivacyPolicyIn = (language: Language): Effect.Effect<VersionedDocument, never, DocumentRenderer> =>
  DocumentRenderer.use((renderer) =>
    Effect.map(renderer.render(PRIVACY_POLICIES[language]), (document) => ({
      document,
      version: PRIVACY_POLICIES[language].cacheKey!
    }))
  )

/** The insurer's privacy policy in Danish, as kasko serves it when the insurer keeps none at a URL of its own. */
export const getPrivacyPolicy: Effect.Effect<VersionedDocument, never, DocumentRenderer> =
  getPrivacyPolicyIn(DEFAULT_LANGUAGE)

/**
 * The document of a partner's quote for its customer, as of now (CPR numbers masked), in a language (Danish unless
 * given). The same quotes are found
 * as by `getQuote`: another partner's, an unknown and a 30-day-old quote are QuoteNotFound.
 */
export const getQuoteDocument = (
  partnerId: string,
  quoteId: string,
  language: Language = DEFAULT_LANGUAGE
): Effect.Effect<
  RenderedDocument,
  QuoteNotFound | ProductNotFound | StorageUnavailable,
  QuoteStore | DocumentRenderer
> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const stored = yield* findLiveQuote(partnerId, quoteId, now)
    const renderer = yield* DocumentRenderer
    // printed in the words of the product's version it was priced under, which its worksheet records (the one in force
    // on its pricing date for a quote stored before versions were recorded): that version is the one in force from
    // the date it takes effect
    const whole = catalogueIn(yield* Effect.context<never>())
    const madeUnder = whole
      .versionsOf(stored.worksheet.product_name)
      .find((version) => version.version === stored.worksheet.product_version)
    const catalogue = whole.on(madeUnder?.effective_from ?? stored.worksheet.pricing_date)
    // a quote of a product this catalogue does not sell (any more) has no words to print it with
    const productName = stored.worksheet.product_name
    if (catalogue.document(productName) === undefined)
      return yield* new ProductNotFound({ product_name: productName, products: catalogue.productNames })
    return yield* renderer.render(quoteDocument(stored, yield* DocumentLinks, now, catalogue, language))
  })
