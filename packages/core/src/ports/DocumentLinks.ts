/**
 * Where the documents a car buyer reads are: the product information document (IPID) of each product variant
 * and the insurer's privacy policy, which offers and quotes link to (spec §2.6, §2.9). The insurer keeps them
 * itself, or kasko serves its own (`documentPaths`). Answers compute the links when they answer, so a changed
 * configuration is seen by every quote, stored before the change or after it.
 * @module
 */
import { Context } from "effect"
import type { ProductName } from "../product/ProductCatalogue.js"
import type { Variant } from "../product/Variant.js"

/** Where answers point for documents: a product variant's IPID (`ipid_href`) and the privacy policy (`policy_href`). */
export interface DocumentLinksShape {
  /** The URL of a product variant's IPID. */
  readonly ipidHref: (productName: ProductName, variant: Variant) => string
  /** The URL of the insurer's privacy policy. */
  readonly privacyPolicyHref: () => string
}

/** Where kasko serves its own documents, below the partner API's root (its base path). */
export const documentPaths = {
  ipid: (productName: ProductName, variant: Variant): string => `/products/${productName}/variants/${variant}/ipid`,
  privacyPolicy: "/privacy-policy"
} as const

/**
 * Links to the documents kasko serves below `apiRoot()`: the partner API's URL (`https://api.example/partner`),
 * read at each answer (a service learns its port once it listens).
 */
export const servedBy = (apiRoot: () => string): DocumentLinksShape => ({
  ipidHref: (productName, variant) => `${apiRoot()}${documentPaths.ipid(productName, variant)}`,
  privacyPolicyHref: () => `${apiRoot()}${documentPaths.privacyPolicy}`
})

/**
 * Links to documents the insurer keeps: `{documentsBaseUrl}/ipid/{product_name}-{variant}.pdf`, and its privacy
 * policy's own URL; either one left undefined falls back to `otherwise`'s.
 */
export const keptByInsurer = (
  insurer: { readonly documentsBaseUrl?: string | undefined; readonly privacyPolicyUrl?: string | undefined },
  otherwise: DocumentLinksShape
): DocumentLinksShape => {
  const base = insurer.documentsBaseUrl?.replace(/\/+$/, "")
  const privacyPolicyUrl = insurer.privacyPolicyUrl
  return {
    ipidHref:
      base === undefined ? otherwise.ipidHref : (productName, variant) => `${base}/ipid/${productName}-${variant}.pdf`,
    privacyPolicyHref: privacyPolicyUrl === undefined ? otherwise.privacyPolicyHref : () => privacyPolicyUrl
  }
}

/**
 * The links answers carry. Unless a layer provides them (the service does, from its configuration), they are
 * kasko's own documents' paths relative to the partner API's root, for an embedder that serves them there.
 */
export const DocumentLinks = Context.Reference<DocumentLinksShape>("@kasko/core/DocumentLinks", {
  defaultValue: () => servedBy(() => "")
})
