/**
 * The variant of a product, derived from its parameters (spec §1) by the rule in
 * the product's document: the first variant whose `when` holds, else the last.
 * The rule is data so that the workbench and the documents describe the rule the
 * engine runs; it is compiled once, with the tariff compiler's semantics.
 * @module
 */
import type { Condition } from "../pricing/Tariff.js"
import { compileOverFacts, factConditionsOf } from "../pricing/TariffCompiler.js"
import type { ParameterValue, ProductParameters } from "./Parameters.js"
import { type Catalogue, shipped } from "./ProductCatalogue.js"
import { type ParameterCondition, type ProductDocument, type Variant, VARIANTS } from "./ProductDocument.js"

export { VARIANTS, type Variant } from "./ProductDocument.js"

/** True for a variant's name. */
export const isVariant = (name: string): name is Variant => (VARIANTS as ReadonlyArray<string>).includes(name)

interface CompiledRule {
  /** The parameters the rule reads, in the order its compiled conditions find them. */
  readonly parameterNames: ReadonlyArray<string>
  readonly variants: ReadonlyArray<{
    readonly name: Variant
    readonly holds: (facts: ReadonlyArray<unknown>) => boolean
  }>
  readonly otherwise: Variant
}

const compileRule = (document: ProductDocument): CompiledRule => {
  const ruled = document.variants.slice(0, -1)
  const parameterNames = [
    ...new Set(
      ruled.flatMap((variant) =>
        variant.when === undefined ? [] : factConditionsOf(variant.when as Condition).map((condition) => condition.fact)
      )
    )
  ]
  return {
    parameterNames,
    variants: ruled.map((variant) => ({
      name: variant.name,
      holds: compileOverFacts(variant.when ?? { all: [] }, parameterNames, `the variant rule of ${variant.name}`)
    })),
    otherwise: document.variants[document.variants.length - 1]!.name
  }
}

// each product's rule, compiled the first time one of its cases asks (a catalogue's products are compiled when its
// tariff book is made)
const RULES = new WeakMap<ProductDocument, CompiledRule>()

const ruleOf = (document: ProductDocument): CompiledRule => {
  let rule = RULES.get(document)
  if (rule === undefined) {
    rule = compileRule(document)
    RULES.set(document, rule)
  }
  return rule
}

/** The variant of a case of a product, from its parameters as the engine decodes them: an option's id, a number as a number. */
export const variantOfCase = (
  document: ProductDocument,
  parameters: Readonly<Record<string, ParameterValue | undefined>>
): Variant => {
  const rule = ruleOf(document)
  const facts = new Array<unknown>(rule.parameterNames.length)
  for (let index = 0; index < facts.length; index++) facts[index] = parameters[rule.parameterNames[index]!]
  for (const variant of rule.variants) if (variant.holds(facts)) return variant.name
  return rule.otherwise
}

const documentOf = (productName: string, catalogue: Catalogue): ProductDocument => {
  const document = catalogue.document(productName)
  if (document === undefined) throw new Error(`the catalogue has no product ${productName}`)
  return document
}

/** The variant of a case of a catalogue's product (a shipped one unless given), by the product's name. */
export const variantOf = (
  productName: string,
  parameters: Readonly<Record<string, ParameterValue | undefined>>,
  catalogue: Catalogue = shipped
): Variant => variantOfCase(documentOf(productName, catalogue), parameters)

/** The variant of a case of a product, from its decoded parameters (an option's id, a number as a number). */
export const deriveVariant = (
  productName: string,
  parameters: ProductParameters,
  catalogue: Catalogue = shipped
): Variant => variantOf(productName, parameters, catalogue)

/** The `equal` comparisons of a variant's rule when it is all of them (the seed products' Standard): parameter → value. */
export const equalitiesOf = (condition: ParameterCondition | undefined): Readonly<Record<string, string>> => {
  if (condition === undefined || !("all" in condition)) return {}
  const entries = condition.all.flatMap((part) =>
    "fact" in part && part.operator === "equal" && typeof part.value === "string" ? [[part.fact, part.value]] : []
  )
  return Object.fromEntries(entries)
}

/** What makes a case of the product its first variant, when the rule is all equalities: parameter → value. */
export const firstVariantWhen = (
  productName: string,
  catalogue: Catalogue = shipped
): Readonly<Record<string, string>> => equalitiesOf(catalogue.document(productName)?.variants[0]?.when)

/** The parameters whose values keep a case from the product's first variant (none for a case of it), in rule order. */
export const extendedBecause = (
  productName: string,
  parameters: Readonly<Record<string, string | undefined>>,
  catalogue: Catalogue = shipped
): Array<string> =>
  Object.entries(firstVariantWhen(productName, catalogue)).flatMap(([name, value]) =>
    parameters[name] === value ? [] : [name]
  )
