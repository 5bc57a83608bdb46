/**
 * The MCP server's resources: each product's definition (JSON, as `GET /products/{product_name}` answers it) and
 * each product variant's information document, the IPID (as plain text, where the service prints it as PDF).
 * Listed from the catalogue, so a product added as data is listed too; a session's catalogue holds only the products
 * its partner may sell, and it reads no other's.
 */
import {
  type Authentication,
  type CoreError,
  DocumentRenderer,
  ProductCatalogue,
  ProductNotFound,
  QuotingService,
  type TariffBook
} from "@kasko/core"
import { VARIANTS } from "@kasko/core/transport"
import { Effect } from "effect"
import { textRenderer } from "./TextDocuments.js"

/** A resource as `resources/list` lists it. */
export interface ListedResource {
  readonly uri: string
  readonly name: string
  readonly title: string
  readonly description: string
  readonly mimeType: string
}

/** A resource's content as `resources/read` answers it. */
export interface ResourceText {
  readonly uri: string
  readonly mimeType: string
  readonly text: string
}

const DEFINITION_TYPE = "application/json"
const IPID_TYPE = "text/plain"

const definitionUri = (productName: string) => `kasko://products/${productName}`
const ipidUri = (productName: string, variant: string) => `kasko://products/${productName}/variants/${variant}/ipid`

const URI = /^kasko:\/\/products\/([^/]+)(?:\/variants\/([^/]+)\/ipid)?$/

/** The resources of a catalogue's products. */
export const resourcesOf = ProductCatalogue.perCatalogue(
  (catalogue): ReadonlyArray<ListedResource> =>
    catalogue.products.flatMap((document) => [
      {
        uri: definitionUri(document.product_name),
        name: document.product_name,
        title: `${document.title}: definition`,
        description: `The definition of ${document.product_name}: its parameters with their allowed values, and its features.`,
        mimeType: DEFINITION_TYPE
      },
      ...VARIANTS.map((variant) => ({
        uri: ipidUri(document.product_name, variant),
        name: `${document.product_name}-${variant}-ipid`,
        title: `${document.title}, ${variant}: product information (IPID)`,
        description: `The insurance product information document of ${document.product_name}'s ${variant} variant, in Danish: what is insured and what is not, restrictions, where, obligations, payment, start and end, cancellation.`,
        mimeType: IPID_TYPE
      }))
    ])
)

/** What a resource's URI names: a product's definition, or a variant's IPID; undefined for another URI. */
export const resourceOf = (
  uri: string
): { readonly productName: string; readonly variant: string | undefined } | undefined => {
  const match = URI.exec(uri)
  return match === null ? undefined : { productName: decodeURIComponent(match[1]!), variant: match[2] }
}

/** The scope reading a resource needs: a definition `products:read`; an IPID none, being public as over REST. */
export const scopeOfResource = (variant: string | undefined): Authentication.Scope | undefined =>
  variant === undefined ? "products:read" : undefined

/**
 * A resource's content; ProductNotFound for a product or variant the catalogue lacks, or a product the session's
 * partner may not sell (`products`, undefined: every one), named as the catalogue's others are.
 */
export const readResource = (
  productName: string,
  variant: string | undefined,
  products?: ReadonlyArray<string>
): Effect.Effect<ResourceText, CoreError, TariffBook.TariffBook> =>
  variant !== undefined && products !== undefined && !products.includes(productName)
    ? Effect.fail(new ProductNotFound({ product_name: productName, products }))
    : variant === undefined
      ? Effect.map(QuotingService.getProduct(productName, undefined, products), (definition) => ({
          uri: definitionUri(productName),
          mimeType: DEFINITION_TYPE,
          text: JSON.stringify(definition, null, 2)
        }))
      : Effect.map(
          QuotingService.getProductInformation(productName, variant).pipe(
            Effect.provideService(DocumentRenderer.DocumentRenderer, textRenderer)
          ),
          ({ document }) => ({
            uri: ipidUri(productName, variant),
            mimeType: IPID_TYPE,
            text: new TextDecoder().decode(document.bytes)
          })
        )
