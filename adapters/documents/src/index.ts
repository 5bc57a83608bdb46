export * as PdfDocuments from "./PdfDocuments.js"
