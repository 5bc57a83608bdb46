/**
 * The documents behind the links offers and quotes answer, as PDF: a product variant's information document
 * (IPID) and the privacy policy — public, no credentials, cacheable with an ETag per version — and a quote's
 * document for the customer, the partner's own (scope `quotes:read`, 404 as for the quote itself, never stored
 * by caches). The paths are the ones `DocumentLinks` links to when kasko serves its own documents.
 */
import { type DocumentRenderer, Examples, type QuoteStore, QuotingService, type TariffBook } from "@kasko/core"
import { type ProductCatalogue, VARIANTS } from "@kasko/core/transport"
import { Effect } from "effect"
import { languageHeaders, languageOf } from "./ContentLanguage.js"
import { documentReply, type OperationOf, type PathParameter } from "./Operation.js"

export type DocumentServices = DocumentRenderer.DocumentRenderer | TariffBook.TariffBook | QuoteStore.QuoteStore

const PDF = "application/pdf"
// an hour: a new tariff version's IPID is seen within it, and an unchanged one is revalidated by its ETag
const PUBLIC_DOCUMENT_MAX_AGE_SECONDS = 3_600

const EXAMPLE_QUOTE = Examples.quoteAnswer()

/** The document operations of an API selling a catalogue's products: its product names the path's enum. */
export const documentOperationsOf = (
  catalogue: ProductCatalogue.Catalogue
): ReadonlyArray<OperationOf<DocumentServices>> => {
  const productNameParameter: PathParameter = {
    name: "product_name",
    description: "The product",
    schema: { type: "string", enum: [...catalogue.productNames] },
    example: catalogue.productNames[0]!
  }
  return [
    {
      operationId: "getProductInformation",
      method: "get",
      path: "/products/{product_name}/variants/{variant}/ipid",
      tag: "documents",
      summary: "Read a product variant's information document (IPID)",
      description:
        "The insurance product information document of a product variant (Insurance Distribution Directive Art. 20, Regulation (EU) 2017/1469), as PDF in Danish, or in English when `Accept-Language` asks for it: what is insured — the coverages of the tariff in force with their limits and deductibles — what is not, restrictions, where the cover applies, obligations, payment, start and end, cancellation. The `ipid_href` of offers and quotes links here unless the insurer keeps its own. The same until the tariff version changes: its ETag is its version; If-None-Match answers 304.",
      pathParameters: [
        productNameParameter,
        {
          name: "variant",
          description: "The variant (spec §1): standard or extended",
          schema: { type: "string", enum: [...VARIANTS] },
          example: "standard"
        }
      ],
      document: { mediaType: PDF, maxAgeSeconds: PUBLIC_DOCUMENT_MAX_AGE_SECONDS },
      countedByAddress: true,
      responses: [],
      responseDescription: "The IPID, as PDF",
      responseExamples: [],
      errorStatuses: [404, 503],
      languageNegotiated: true,
      handle: ({ params, headers }) => {
        const language = languageOf(headers)
        return Effect.map(
          QuotingService.getProductInformation(params["product_name"] ?? "", params["variant"] ?? "", language),
          ({ document, version }) =>
            documentReply(
              document,
              `ipid-${params["product_name"]}-${params["variant"]}.pdf`,
              version,
              languageHeaders(language)
            )
        )
      }
    },
    {
      operationId: "getPrivacyPolicy",
      method: "get",
      path: "/privacy-policy",
      tag: "documents",
      summary: "Read the insurer's privacy policy",
      description:
        "The privacy policy, as PDF in Danish, or in English when `Accept-Language` asks for it: who is responsible for the customer's data, what is kept and why, for how long, who receives it, the customer's rights. The `privacy.policy_href` of offers and quotes links here unless the insurer keeps its own.",
      document: { mediaType: PDF, maxAgeSeconds: PUBLIC_DOCUMENT_MAX_AGE_SECONDS },
      countedByAddress: true,
      responses: [],
      responseDescription: "The privacy policy, as PDF",
      responseExamples: [],
      languageNegotiated: true,
      handle: ({ headers }) => {
        const language = languageOf(headers)
        return Effect.map(QuotingService.getPrivacyPolicyIn(language), ({ document, version }) =>
          documentReply(document, "privacy-policy.pdf", version, languageHeaders(language))
        )
      }
    },
    {
      operationId: "getQuoteDocument",
      method: "get",
      path: "/insurance/car/quotes/{quote_id}/document",
      tag: "documents",
      summary: "Print a quote for the customer",
      description:
        "The quote as a PDF document in Danish (in English when `Accept-Language` asks for it) for the dealer to print or e-mail to the customer: insurer, partner and agent, the parties as registered (CPR numbers masked but for their last four digits), the vehicle, the product and variant, the coverages with their limits and deductibles, the price per year and per payment with its charges, the tariff version, the quote number, when it was created and until when it is valid, and whether it is activated. 404 as for the quote: once it is 30 days old, and for another partner's quote.",
      scope: "quotes:read",
      pathParameters: [
        {
          name: "quote_id",
          description: "The quote's id, as answered when it was created",
          schema: { type: "string", format: "uuid" },
          example: EXAMPLE_QUOTE.quote_id
        }
      ],
      document: { mediaType: PDF },
      responses: [],
      responseDescription: "The quote's document, as PDF",
      responseExamples: [],
      errorStatuses: [404, 503],
      printsDocument: true,
      noStore: true,
      languageNegotiated: true,
      handle: ({ params, partnerId, headers }) => {
        const language = languageOf(headers)
        return Effect.map(QuotingService.getQuoteDocument(partnerId, params["quote_id"] ?? "", language), (document) =>
          documentReply(
            document,
            `${language === "da" ? "tilbud" : "quote"}-${params["quote_id"]}.pdf`,
            undefined,
            languageHeaders(language)
          )
        )
      }
    }
  ]
}
