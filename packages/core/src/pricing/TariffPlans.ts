/**
 * The plans a tariff prices with, made once and kept: one per version of its product it prices (a catalogue may hold
 * several, each in force from its date), and which of them prices a case on a date. Scaled plans and a folder
 * check's plans are made anew.
 */
import type { CalendarDate } from "../input/CalendarDate.js"
import type { ProductDocument } from "../product/ProductDocument.js"
import { type CoverageScaling, makePlan, type PricingPlan } from "./PricingPlan.js"
import { catalogueOfTariff, type Tariff } from "./Tariff.js"

// each tariff's plans, one per version of its product it prices (undefined: a product no catalogue has)
const plans = new WeakMap<Tariff, Map<ProductDocument | undefined, PricingPlan>>()

/**
 * A plan of the tariff with one coverage scaled (`CoverageScaling`), made anew on each call: the
 * same pricing arithmetic — each line rounded half up once, the charges levied on the scaled
 * premiums — so it prices what the scaled tariff would. Over `product` (a version of the tariff's product), or
 * the one its default plan reads.
 */
export const scaledPlanOf = (
  tariff: Tariff,
  scaling: CoverageScaling,
  product: ProductDocument | undefined = planOf(tariff).product
): PricingPlan => makePlan(tariff, scaling, product)

/**
 * The plan of a tariff over a version of its product, made once and kept: a catalogue's tariffs are planned so over
 * the versions they price when their book is made (`TariffDocuments.decodeTariffs`), and later calls answer the same
 * plan. A product folder's check plans its tariff so before the product is in any catalogue.
 */
export const planWithProduct = (tariff: Tariff, product: ProductDocument | undefined): PricingPlan => {
  let planned = plans.get(tariff)
  if (planned === undefined) {
    planned = new Map()
    plans.set(tariff, planned)
  }
  let plan = planned.get(product)
  if (plan === undefined) {
    plan = makePlan(tariff, undefined, product)
    planned.set(product, plan)
  }
  return plan
}

/**
 * The plan of a tariff whose product is not in a catalogue yet, over the facts a check gives it: how a product
 * folder is checked before it is loaded. Made anew on each call.
 */
export const planOverFacts = (tariff: Tariff, factNames: ReadonlyArray<string>): PricingPlan =>
  makePlan(tariff, undefined, undefined, factNames)

/**
 * The plan of a decoded tariff over its product's newest version in the catalogue it was decoded against (over the
 * shipped products' facts for a product no catalogue has), made the first time it is asked for.
 */
export const planOf = (tariff: Tariff): PricingPlan =>
  planWithProduct(tariff, catalogueOfTariff(tariff).document(tariff.product_name))

/**
 * The plan a tariff prices a case on `date` with: over the version of its product in force on that date, as the
 * request was decoded against (`ProductCatalogue.Catalogue.on`); its default plan when the newest is in force. A
 * tariff priced before it takes effect (a proposal the actuary's tools try on today's cases) is planned over the
 * version in force when it does: the one it was written for.
 */
export const planOn = (tariff: Tariff, date: CalendarDate): PricingPlan => {
  // every request prices on today's date: the plan of the last date asked for is answered by one lookup
  const last = lastPlanOn.get(tariff)
  if (last !== undefined && last.date === date) return last.plan
  const catalogue = catalogueOfTariff(tariff)
  const inForce = catalogue.on(date < tariff.effective_from ? tariff.effective_from : date)
  const product = inForce === catalogue ? undefined : inForce.document(tariff.product_name)
  const plan = product === undefined ? planOf(tariff) : planWithProduct(tariff, product)
  lastPlanOn.set(tariff, { date, plan })
  return plan
}

// each tariff's plan for the last date priced on
const lastPlanOn = new WeakMap<Tariff, { readonly date: CalendarDate; readonly plan: PricingPlan }>()
