/**
 * The tool table: each tool of the MCP server with its name, its description for a model, the scope it needs, its
 * input and output JSON Schemas — generated from the core's own Schemas of the catalogue's products — and the
 * program that answers it through QuotingService, as the REST operation of the same body does. Made once per
 * catalogue: a product added as data is in the enums and descriptions without code.
 */
import {
  type Authentication,
  type CoreError,
  type IdGenerator,
  Language,
  ProductCatalogue,
  type QuoteStore,
  QuotingService,
  type TariffBook
} from "@kasko/core"
import { Offer, Quote, QuoteRequest } from "@kasko/core/transport"
import { Effect, Schema } from "effect"
import { comparisonText, compareFeatures, FeatureComparison } from "./FeatureComparison.js"
import { idempotentRequestOf, withIdempotencyKey } from "./IdempotentQuote.js"
import { type JsonObject, jsonSchemaOf, jsonSchemaOfEither, withSandboxEnvironment } from "./JsonSchemas.js"
import { explanationOf, explanationText, PriceExplanation } from "./PriceExplanation.js"
import { partiesGuide, productGuide, productsLine } from "./ToolDescriptions.js"

/** The services a tool's program uses; the runtime provides them once. */
export type ToolServices = TariffBook.TariffBook | QuoteStore.QuoteStore | IdGenerator.IdGenerator

/** A tool's answer: its structured content (what its output schema describes) and a short text for the model. */
export interface ToolAnswer {
  readonly structured: JsonObject
  readonly text: string
}

/** What clients may assume of a tool: MCP's tool annotations (read-only, destructive, idempotent, open world). */
export interface ToolHints {
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
}

/**
 * The partner a call acts for: its id, the products it may sell (every product when absent), and `sandbox` when its
 * key works in the partner's sandbox (then the id is the sandbox's).
 */
export type ActingPartner = Pick<Authentication.Principal, "partnerId" | "products" | "environment">

/** One tool of the MCP server: what a client lists of it, the scope it needs, and the program that answers a call. */
export interface Tool {
  readonly name: string
  readonly title: string
  readonly description: string
  /** The scope a token must carry to call it (over HTTP; a stdio session acts with every scope). */
  readonly scope: Authentication.Scope
  readonly inputSchema: JsonObject
  readonly outputSchema: JsonObject
  readonly annotations: ToolHints
  /** Answers a call's arguments for the partner acting (only with the products it may sell). */
  readonly run: (args: unknown, acting: ActingPartner) => Effect.Effect<ToolAnswer, CoreError, ToolServices>
}

/** The tools' names, in the order they are listed. */
export const TOOL_NAMES = [
  "get_product",
  "price_offer",
  "explain_price",
  "compare_features",
  "create_quote",
  "get_quote",
  "activate_quote"
] as const
/** The name of one of the tools, as a client calls it. */
export type ToolName = (typeof TOOL_NAMES)[number]

// each answer Schema's encoder, made once
const encoders = new WeakMap<Schema.Top, (value: unknown) => unknown>()
const encoded = (schema: Schema.Top, value: unknown): JsonObject => {
  let encode = encoders.get(schema)
  if (encode === undefined) {
    encode = Schema.encodeUnknownSync(schema as Schema.Codec<unknown, unknown>)
    encoders.set(schema, encode)
  }
  return encode(value) as JsonObject
}

const READS: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
}

const QuoteIdArguments = Schema.Struct({
  quote_id: Schema.String.annotate({ description: "The quote's id, as create_quote answered it" })
})

const quoteIdOf = (args: unknown): string => {
  const quoteId = (args as { readonly quote_id?: unknown } | undefined)?.quote_id
  return typeof quoteId === "string" ? quoteId : ""
}

const offerText = (offer: typeof Offer.PriceOfferAnswer.Type): string => {
  const coverages = (offer.policies[0]?.coverages ?? []).map((coverage) =>
    coverage.deductible === undefined ? coverage.name : `${coverage.name} (deductible ${coverage.deductible} kr)`
  )
  return `${offer.product.product_name}, ${offer.product.features[0]?.name} feature: ${offer.price.annually} kr a year, or ${offer.price.monthly} kr a month paid monthly. Coverages: ${coverages.join(", ")}. Product information: ${offer.policies[0]?.ipid_href ?? ""}`
}

const quoteText = (quote: typeof Quote.QUOTE_ANSWERS.Quote.Type | typeof Quote.QUOTE_ANSWERS.ActivatedQuote.Type) =>
  `Quote ${quote.quote_id} (${quote.product.product_name}, ${quote.product.features[0]?.name} feature), ${quote.status === "activated" ? "activated" : "awaiting activation"}: ${quote.price.amount} ${quote.price.currency} per payment, ${quote.price.payments_per_year} payment${quote.price.payments_per_year === 1 ? "" : "s"} a year; valid until ${quote.expires_at}.`

/** The tools selling a catalogue's products. */
export const toolsOf = ProductCatalogue.perCatalogue((catalogue): ReadonlyArray<Tool> => {
  const guide = productGuide(catalogue)
  const offerArguments = jsonSchemaOf(Offer.offerRequestSchemaOf(catalogue))
  const quoteArguments = withIdempotencyKey(jsonSchemaOf(QuoteRequest.quoteRequestSchemaOf(catalogue)))
  const ProductArguments = Schema.Struct({
    product_name: Schema.Literals(catalogue.productNames).annotate({ description: "The product" }),
    language: Schema.optionalKey(
      Schema.Literals(Language.LANGUAGES).annotate({
        description: "The language of its titles: da, Danish (the default), or en, English"
      })
    )
  })
  return [
    {
      name: "get_product",
      title: "Read a product's definition",
      description: [
        "Reads a car insurance product's definition: its parameters (each with its type, whether it is required, and its allowed values with their titles) and its features (the covers a customer chooses between, with their descriptions), in Danish, or in English with language en.",
        "Use it to learn or show what a product asks for before pricing it. Nothing is stored.",
        `The products: ${productsLine(catalogue)}.`
      ].join("\n"),
      scope: "products:read",
      inputSchema: jsonSchemaOf(ProductArguments),
      outputSchema: jsonSchemaOf(ProductCatalogue.AnyProductDefinition),
      annotations: READS,
      run: (args, acting) => {
        const { product_name: productName, language } =
          (args as { readonly product_name?: unknown; readonly language?: unknown } | undefined) ?? {}
        return Effect.map(
          QuotingService.getProduct(
            typeof productName === "string" ? productName : "",
            language as Language.Language | undefined,
            acting.products
          ),
          (definition) => ({
            structured: encoded(ProductCatalogue.AnyProductDefinition, definition),
            text: `${definition.product_name} (${definition.title}): parameters ${definition.parameters.map((parameter) => parameter.name).join(", ")}; features ${definition.features.map((feature) => feature.name).join(", ")}.`
          })
        )
      }
    },
    {
      name: "price_offer",
      title: "Price an anonymous offer",
      description: [
        "Prices car insurance for a case described by the product's parameters alone: the annual price, the monthly price (paid 12 times a year, a little more in total), and the coverages with their deductibles and limits. No names or identity numbers are needed and nothing is stored, so use it freely whenever a customer asks what insurance would cost, and again for each change they consider.",
        "The arguments are the body of POST /insurance/car/offers: {product}.",
        guide
      ].join("\n"),
      scope: "offers:create",
      inputSchema: offerArguments,
      outputSchema: jsonSchemaOf(Offer.PriceOfferAnswer),
      annotations: READS,
      run: (args, acting) =>
        Effect.map(QuotingService.createOffer(args, acting.products), (offer) => ({
          structured: encoded(Offer.PriceOfferAnswer, offer),
          text: offerText(offer)
        }))
    },
    {
      name: "explain_price",
      title: "Explain a price, line by line",
      description: [
        "Explains the price price_offer answers for the same arguments: every coverage line (its base premium, each loading — a young driver, the vehicle's use — and its premium), every charge (taxes and contributions), which add up to the annual total, and how the total is rounded to the annual and monthly price. Amounts are in øre so that the lines sum exactly.",
        "Use it when a customer asks why a price is what it is, or what makes it higher or lower. Nothing is stored.",
        "The arguments are those of price_offer: {product}.",
        guide
      ].join("\n"),
      scope: "offers:create",
      inputSchema: offerArguments,
      outputSchema: jsonSchemaOf(PriceExplanation),
      annotations: READS,
      run: (args, acting) =>
        Effect.map(QuotingService.explainPrice(args, acting.products), (worksheet) => {
          const explanation = explanationOf(worksheet, catalogue)
          return { structured: encoded(PriceExplanation, explanation), text: explanationText(explanation) }
        })
    },
    {
      name: "compare_features",
      title: "Compare features and payment plans",
      description: [
        "Prices the same case with each of its product's features and each payment plan (payments_per_year: once a year, or 12 times a year), so that a customer can choose: for each option the amount per payment, what that comes to a year, and the coverages it includes.",
        "Use it when a customer weighs a cheaper against a fuller cover, or paying yearly against monthly. Nothing is stored.",
        "The arguments are those of price_offer: {product}; its feature and payments_per_year are replaced by each option in turn.",
        guide
      ].join("\n"),
      scope: "offers:create",
      inputSchema: offerArguments,
      outputSchema: jsonSchemaOf(FeatureComparison),
      annotations: READS,
      run: (args, acting) =>
        Effect.map(compareFeatures(args, acting.products), (comparison) => ({
          structured: encoded(FeatureComparison, comparison),
          text: comparisonText(comparison)
        }))
    },
    {
      name: "create_quote",
      title: "Create a quote for named customers",
      description: [
        "Creates a binding quote for named customers, valid for 30 days: it prices the case as price_offer does and records the parties (policy holder, vehicle owner, vehicle user — persons with CPR numbers, organizations with CVR numbers), the vehicle and the agent. Answers the quote with its quote_id and policy number; activate_quote then activates it.",
        "Use it only once the customer has chosen a product, a feature and a payment plan and has given their details for this purpose. Each call creates a new quote, unless it carries an idempotency_key: a call repeated with the same key and arguments within 24 hours (a retry after a lost answer) answers the quote the first one created, and creates none.",
        "The arguments are the body of POST /insurance/car/quotes: {product, policy, agent}, and optionally idempotency_key (as the REST API's Idempotency-Key header). policy.expected_effective_at is the date the insurance is to start, YYYY-MM-DD, today or later.",
        partiesGuide(catalogue),
        guide
      ].join("\n"),
      scope: "quotes:create",
      inputSchema: quoteArguments,
      outputSchema: jsonSchemaOf(Quote.QUOTE_ANSWERS.Quote),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (args, acting) =>
        Effect.flatMap(idempotentRequestOf(args), ({ request, idempotency }) =>
          Effect.map(QuotingService.createQuote(acting.partnerId, request, idempotency, acting.products), (quote) => ({
            structured: encoded(Quote.QUOTE_ANSWERS.Quote, quote),
            text: `${quoteText(quote)} Activate it with activate_quote once the customer accepts.`
          }))
        )
    },
    {
      name: "get_quote",
      title: "Read a quote",
      description: [
        "Reads a quote this partner created: while it awaits activation, the quote as created; once activated, the activated form with its quote_number and the policy. A quote is found for 30 days from its creation, and only by the partner that created it.",
        "Use it to check a quote's state and price before talking about it. Nothing is changed."
      ].join("\n"),
      scope: "quotes:read",
      inputSchema: jsonSchemaOf(QuoteIdArguments),
      outputSchema: jsonSchemaOfEither([Quote.QUOTE_ANSWERS.Quote, Quote.QUOTE_ANSWERS.ActivatedQuote]),
      annotations: READS,
      run: (args, acting) =>
        Effect.map(QuotingService.getQuote(acting.partnerId, quoteIdOf(args)), (retrieved) =>
          retrieved.state === "activated"
            ? {
                structured: encoded(Quote.QUOTE_ANSWERS.ActivatedQuote, retrieved.quote),
                text: quoteText(retrieved.quote)
              }
            : { structured: encoded(Quote.QUOTE_ANSWERS.Quote, retrieved.quote), text: quoteText(retrieved.quote) }
        )
    },
    {
      name: "activate_quote",
      title: "Activate a quote",
      description: [
        "Activates a quote this partner created, younger than 30 days: the insurance is taken out on the quote's terms and price. Activating an activated quote changes nothing. Answers the quote's state and expiry.",
        "Use it only when the customer has accepted the quote, in so many words."
      ].join("\n"),
      scope: "quotes:activate",
      inputSchema: jsonSchemaOf(QuoteIdArguments),
      outputSchema: jsonSchemaOf(Quote.QUOTE_ANSWERS.QuoteActivation),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: (args, acting) => {
        const quoteId = quoteIdOf(args)
        return Effect.map(QuotingService.activateQuote(acting.partnerId, quoteId), (activation) => ({
          structured: encoded(Quote.QUOTE_ANSWERS.QuoteActivation, activation),
          text: `Quote ${quoteId} is activated. get_quote reads it, with its quote_number, until ${activation.expires_at}.`
        }))
      }
    }
  ] satisfies ReadonlyArray<Tool & { readonly name: ToolName }>
})

/**
 * The tools as a sandbox key's session lists them: each output schema allowing the `"environment": "sandbox"` its
 * answers carry (`withSandboxEnvironment`). Their programs are the same.
 */
export const sandboxToolsOf = ProductCatalogue.perCatalogue(
  (catalogue): ReadonlyArray<Tool> =>
    toolsOf(catalogue).map((tool) => ({ ...tool, outputSchema: withSandboxEnvironment(tool.outputSchema) }))
)
