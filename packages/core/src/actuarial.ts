/**
 * `@kasko/core/actuarial`: the pricing machinery the actuary's tools open up —
 * tariffs and their compiler, the pricing functions, the rating worksheet,
 * money, and the product vocabulary (parameters, variants, coverages) the
 * rules are written in.
 * @module
 */
export * as CalendarDate from "./input/CalendarDate.js"
export * as Coverage from "./product/Coverage.js"
export * as Decoding from "./input/Decoding.js"
export * as Money from "./pricing/Money.js"
export * as Offer from "./quote/Offer.js"
export * as Parameters from "./product/Parameters.js"
export * as Pricing from "./pricing/Pricing.js"
export * as CaseSpace from "./product/CaseSpace.js"
export * as ProductCatalogue from "./product/ProductCatalogue.js"
export * as ProductCheck from "./product/ProductCheck.js"
export * as ProductDocument from "./product/ProductDocument.js"
export * as ProductSelection from "./product/ProductSelection.js"
export * as RatingWorksheet from "./pricing/RatingWorksheet.js"
export * as ReferenceInterpreter from "./pricing/ReferenceInterpreter.js"
export * as Tariff from "./pricing/Tariff.js"
export * as TariffCompiler from "./pricing/TariffCompiler.js"
export * as TariffDocuments from "./pricing/TariffDocuments.js"
export * as Variant from "./product/Variant.js"
