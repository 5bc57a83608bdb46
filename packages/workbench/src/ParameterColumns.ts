/**
 * The parameter columns of a catalogue's files — golden tables and portfolios
 * alike: every parameter of its products' versions once, in the catalogue's order. A
 * product's own parameters (an insurer's van product's mileage, say) follow the
 * shipped products'. Browser-safe.
 */
import { ProductCatalogue } from "@kasko/core/actuarial"

/** A catalogue's parameter columns: every parameter of its products (every version) once, in their order. */
export const parameterColumnsOf = ProductCatalogue.perCatalogue(
  (catalogue): ReadonlyArray<string> => [
    ...new Set(catalogue.versions.flatMap((document) => document.parameters.map((parameter) => parameter.name)))
  ]
)

/** The shipped products' parameter columns (both seed products have the same parameters). */
export const PARAMETER_COLUMNS: ReadonlyArray<string> = parameterColumnsOf(ProductCatalogue.shipped)
