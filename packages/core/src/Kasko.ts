/**
 * The promise facade for embedders that do not use Effect: one runtime built
 * from the layers once, every API call a promise that rejects with the core's
 * tagged error (ConstraintViolation, QuoteNotFound, …).
 * @module
 */
import { Cause, type Effect, Exit, Layer, ManagedRuntime } from "effect"
import { StorageUnavailable } from "./Errors.js"
import type { IdGenerator } from "./ports/IdGenerator.js"
import type { Language } from "./Language.js"
import type { QuoteStore } from "./ports/QuoteStore.js"
import * as QuotingService from "./QuotingService.js"
import { shipped, type TariffBook } from "./ports/TariffBook.js"

/** The quoting API as promises (`Kasko.make`): the same use cases as `QuotingService`; `dispose` it when done. */
export interface Kasko {
  /** A product's definition, its titles in Danish, or in English when `language` is `"en"` (another is a ConstraintViolation). */
  readonly getProduct: (
    productName: string,
    language?: Language
  ) => Promise<Effect.Success<ReturnType<typeof QuotingService.getProduct>>>
  readonly createOffer: (request: unknown) => Promise<Effect.Success<ReturnType<typeof QuotingService.createOffer>>>
  readonly explainPrice: (request: unknown) => Promise<Effect.Success<ReturnType<typeof QuotingService.explainPrice>>>
  readonly createQuote: (
    partnerId: string,
    request: unknown
  ) => Promise<Effect.Success<ReturnType<typeof QuotingService.createQuote>>>
  readonly getQuote: (
    partnerId: string,
    quoteId: string
  ) => Promise<Effect.Success<ReturnType<typeof QuotingService.getQuote>>>
  readonly activateQuote: (
    partnerId: string,
    quoteId: string
  ) => Promise<Effect.Success<ReturnType<typeof QuotingService.activateQuote>>>
  /**
   * Releases the storage and everything else the layers acquired. Calls still running are interrupted
   * first and reject with StorageUnavailable (not retryable): a write already committing may have landed.
   */
  readonly dispose: () => Promise<void>
}

/**
 * Builds the engine on a storage and id layer, selling the shipped products with the shipped tariff unless `tariffs`
 * is given: `TariffBook.ofCatalogue(catalogue, documents)` sells a catalogue of products added as data.
 */
export const make = <E>(
  services: Layer.Layer<QuoteStore | IdGenerator, E>,
  tariffs: Layer.Layer<TariffBook> = shipped
): Kasko => {
  const runtime = ManagedRuntime.make(Layer.merge(services, tariffs))
  const run = async <A, F>(effect: Effect.Effect<A, F, QuoteStore | IdGenerator | TariffBook>): Promise<A> => {
    const exit = await runtime.runPromiseExit(effect)
    if (Exit.isSuccess(exit)) return exit.value
    // only dispose() interrupts a call: say so with a tagged error, not Effect's bare interruption
    if (Cause.hasInterruptsOnly(exit.cause))
      throw new StorageUnavailable({
        reason: "the engine was disposed while this call ran; a write it made may have landed",
        retryable: false
      })
    throw Cause.squash(exit.cause)
  }
  return {
    getProduct: (productName, language) => run(QuotingService.getProduct(productName, language)),
    createOffer: (request) => run(QuotingService.createOffer(request)),
    explainPrice: (request) => run(QuotingService.explainPrice(request)),
    createQuote: (partnerId, request) => run(QuotingService.createQuote(partnerId, request)),
    getQuote: (partnerId, quoteId) => run(QuotingService.getQuote(partnerId, quoteId)),
    activateQuote: (partnerId, quoteId) => run(QuotingService.activateQuote(partnerId, quoteId)),
    dispose: () => runtime.dispose()
  }
}
