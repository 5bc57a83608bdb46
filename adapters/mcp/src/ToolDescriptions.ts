/**
 * The tools' descriptions, written for a model: when to use each tool, what its arguments mean, and the values
 * each parameter allows — read from the catalogue, so that a product added as data is described as the shipped
 * ones are, with no code. Products that take the same parameters are described once together.
 */
import type { ProductCatalogue } from "@kasko/core"
import { Variant } from "@kasko/core/actuarial"

type ProductDocument = ProductCatalogue.Catalogue["products"][number]
type ParameterDocument = ProductDocument["parameters"][number]

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`)

/** What a parameter takes: its options (id and title), its range, or its date format. */
const valuesOf = (parameter: ParameterDocument): string => {
  if (parameter.type === "enum")
    return (parameter.options ?? [])
      .map((option) => (String(option.title) === option.id ? option.id : `${option.id} (${option.title})`))
      .join(" | ")
  if (parameter.type === "date") return "a date YYYY-MM-DD"
  const range =
    parameter.minimum === undefined || parameter.maximum === undefined
      ? "a whole number"
      : `a whole number ${parameter.minimum}–${parameter.maximum}`
  return `${range}, written as a string of digits`
}

/** One parameter on a line: its name and title, required or optional (and its default), its values, its meaning. */
const parameterLine = (parameter: ParameterDocument): string =>
  [
    `- ${parameter.name} (${parameter.title}): `,
    parameter.required ? "required" : "optional",
    parameter.default === undefined ? "" : `, default ${parameter.default}`,
    `; ${valuesOf(parameter)}`,
    parameter.description === undefined ? "" : `. ${sentence(parameter.description)}`
  ].join("")

/** The products grouped by the parameters they take (described alike), in the catalogue's order. */
const byParameters = (catalogue: ProductCatalogue.Catalogue) => {
  const groups = new Map<string, { readonly names: Array<string>; readonly lines: ReadonlyArray<string> }>()
  for (const document of catalogue.products) {
    const lines = document.parameters.map(parameterLine)
    const key = lines.join("\n")
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { names: [document.product_name], lines })
    else group.names.push(document.product_name)
  }
  return [...groups.values()]
}

/** The products by name and title: those of the partner's catalogue, which may hold none. */
export const productsLine = (catalogue: ProductCatalogue.Catalogue): string =>
  catalogue.products.length === 0
    ? "none: this partner may sell no product"
    : catalogue.products.map((document) => `${document.product_name} (${document.title})`).join(", ")

/** What makes a case its product's first variant, when the rule says it plainly; otherwise the variants' names. */
const variantLine = (document: ProductDocument, catalogue: ProductCatalogue.Catalogue): string => {
  const [first, ...others] = document.variants.map((variant) => variant.name)
  const when = Object.entries(Variant.firstVariantWhen(document.product_name, catalogue))
  if (when.length === 0)
    return `${document.product_name}: variants ${[first, ...others].join(", ")}, derived from the parameters`
  return `${document.product_name}: ${first} when ${when.map(([name, value]) => `${name} is ${value}`).join(" and ")}; otherwise ${others.join(" or ")}`
}

/** Every product's parameters, features and variants: the guide to an offer's or a quote's `product`. */
export const productGuide = (catalogue: ProductCatalogue.Catalogue): string =>
  [
    '`product` selects the product and describes the case: product_name; features, a list of exactly one {name} (the cover chosen); parameters, an object of parameter name to value, every value a JSON string (numbers as digits, "200000"). Unknown parameter names are refused.',
    ...byParameters(catalogue).flatMap(({ names, lines }) => [`Parameters of ${names.join(" and ")}:`, ...lines]),
    "Features:",
    ...catalogue.products.map(
      (document) =>
        `- ${document.product_name}: ${document.features.map((feature) => `${feature.name} (${feature.title})`).join(", ")}`
    ),
    "The variant, which decides the coverages and the price, follows from the parameters:",
    ...catalogue.products.map((document) => `- ${variantLine(document, catalogue)}`)
  ].join("\n")

/** What a quote's parties must be, by the roles the products' parameters name: the guide to a quote's `policy.parties`. */
export const partiesGuide = (catalogue: ProductCatalogue.Catalogue): string => {
  const roles = catalogue.partyRoles
  const onlyAs = roles.flatMap((role) =>
    role.quoted_only_as === undefined
      ? []
      : [
          `${role.role} must be ${role.quoted_only_as.kind === "organization" ? "an organization" : "a person"} (${role.quoted_only_as.because})`
        ]
  )
  return [
    `policy.parties must fill the roles the parameters name: for each of ${roles.map((role) => role.role).join(", ")}, at least one party with that role set to true, and every such party carrying the object — person (cpr_number, first_name, last_name) or organization (name, cvr_number) — that the role's parameter (${roles.map((role) => role.parameter).join(", ")}) says.`,
    ...(onlyAs.length === 0 ? [] : [`In a quote, ${onlyAs.join("; ")}.`])
  ].join(" ")
}
