/**
 * `@kasko/documents`: the DocumentRenderer port as PDF — the IPIDs, quote documents and the privacy policy the
 * core writes, laid out with pdfkit on a thread of their own.
 * @module
 */
export * as PdfDocuments from "./PdfDocuments.js"
