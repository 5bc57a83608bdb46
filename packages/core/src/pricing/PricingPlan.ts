/**
 * The pricing plan of a tariff version: made once, when the tariff loads, it
 * prices every request of that version. Each rule's conditions are a compiled
 * predicate; each coverage has a slot. Pricing fires the predicates over the
 * request's facts; which rules fired decides everything but the amounts — the
 * coverages and their order, each one's loading factor and terms, what each
 * charge is levied on, what the offer lists — so that is worked out once per
 * combination of fired rules and charges in force (a recipe), and a request
 * only does its own arithmetic: each premium is its base × the loading factor,
 * rounded half up once; then the charges, the annual total and its rounding.
 * The same numbers feed an offer and, with words added, the rating worksheet.
 */
import type { CalendarDate } from "../input/CalendarDate.js"
import type { Coverage } from "../product/Coverage.js"
import { add, kronerHalfUp, roundHalfUp, roundUp, times, type ExactOre } from "./Money.js"
import { type PricingFacts, vehiclePriceOf } from "./PricingFacts.js"
import { factNamesOf } from "../product/ProductCatalogue.js"
import type { ProductDocument } from "../product/ProductDocument.js"
import {
  catalogueOfTariff,
  chargesInForce,
  FACT_NAMES,
  type Charge,
  type Instruction,
  type Premium,
  type Tariff
} from "./Tariff.js"
import { compileOnSlots, type SlotPredicate } from "./TariffCompiler.js"

type Whole = number | bigint

/** A rule of the plan: its predicate and its instruction, resolved to slots. */
export interface PlannedRule {
  readonly name: string
  readonly position: number
  readonly instruction: Instruction
  readonly holds: SlotPredicate
  /** The coverage slot an add_coverage, set_deductible or set_limit names (−1 for a coverage no rule adds). */
  readonly slot: number
  /** The coverage slots an apply_loading names that some rule adds (twice when it names one twice). */
  readonly slots: ReadonlyArray<number>
}

/** A coverage line of a recipe: what the fired rules made of one coverage. */
export interface RecipeLine {
  readonly slot: number
  readonly coverage: string
  /** The rule that added it. */
  readonly rule: PlannedRule
  readonly premium: Premium
  /** The product of every loading's (100 + percent) / 100. */
  readonly factor: ExactOre
  readonly loadings: ReadonlyArray<PlannedRule>
  /** The premium of a fixed-premium line (øre), the same for every request of the recipe; undefined when price-banded. */
  readonly fixed_premium_ore: number | undefined
  // always present, so that every line has one shape for the code that reads them
  readonly deductible_ore: number | undefined
  readonly limit_ore: number | undefined
}

/** A charge of a recipe: the row in force and the lines it is levied on. */
export interface RecipeCharge {
  readonly charge: Charge
  readonly lines: ReadonlyArray<number>
  /** Where the fired rules list the charge among the coverages, if they do. */
  readonly listed_as_coverage: { readonly id: string; readonly position: number } | undefined
}

/** What one combination of fired rules and charges in force makes of any request: all but its amounts. */
export interface Recipe {
  readonly lines: ReadonlyArray<RecipeLine>
  readonly charges: ReadonlyArray<RecipeCharge>
  /** The coverages as an offer lists them (frozen: every offer of the combination shares them). */
  readonly coverages: ReadonlyArray<Coverage>
}

/** Everything a price is, as numbers: what an offer needs; the worksheet adds the words. */
export interface PriceComputation {
  readonly plan: PricingPlan
  readonly facts: PricingFacts
  readonly pricing_date: CalendarDate
  /** Per rule, in tariff order: 1 when it fired. */
  readonly fired: Uint8Array
  readonly recipe: Recipe
  /** Per recipe line: its premium (øre: base × loading factor, rounded half up once; `basePremium` gives the base). */
  readonly premiums: ReadonlyArray<number>
  /** Per recipe charge: what it comes to (øre; `chargeBase` gives what it is levied on). */
  readonly charge_amounts: ReadonlyArray<number>
  readonly annual_total_ore: number
  readonly monthly_exact: ExactOre
  readonly annually: number
  readonly monthly: number
}

export interface PricingPlan {
  readonly tariff: Tariff
  /** The document of the tariff's product, whose facts the plan reads; undefined for a product no catalogue has. */
  readonly product: ProductDocument | undefined
  readonly rules: ReadonlyArray<PlannedRule>
  /** Slot → coverage name. */
  readonly coverages: ReadonlyArray<string>
  /** The rules whose conditions hold for the facts: 1 per fired rule, in tariff order. */
  readonly fire: (facts: PricingFacts) => Uint8Array
  /**
   * Prices fired rules. Throws when two fired rules add the same coverage: the
   * tariff is wrong, not the request.
   */
  readonly price: (facts: PricingFacts, pricingDate: CalendarDate, fired: Uint8Array) => PriceComputation
}

/** The exact base premium of a coverage: fixed øre, or Σ part of the price in each band × rate (øre × 100). */
export const basePremium = (premium: Premium, vehiclePrice: number): ExactOre => {
  if (premium.type === "fixed") return { numerator: premium.amount, denominator: 1 }
  let lowerBound = 0
  let numerator: Whole = 0
  for (const band of premium.bands) {
    const upperBound = band.up_to ?? Number.POSITIVE_INFINITY
    const portion = Math.max(0, Math.min(vehiclePrice, upperBound) - lowerBound)
    if (portion > 0) numerator = add(numerator, times(portion, band.rate_basis_points))
    lowerBound = upperBound
  }
  return { numerator, denominator: 100 }
}

/** Half-up rounding of n / d for safe non-negative integers, without the exact path's objects. */
const halfUp = (numerator: Whole, denominator: Whole): number => {
  if (typeof numerator === "number" && typeof denominator === "number" && Number.isSafeInteger(numerator * 2)) {
    const quotient = Math.floor(numerator / denominator)
    const remainder = numerator - quotient * denominator
    // the float division can land one off for large operands: the exact path settles those
    if (remainder >= 0 && remainder < denominator) return 2 * remainder >= denominator ? quotient + 1 : quotient
  }
  return roundHalfUp({ numerator, denominator })
}

const MAX_RECIPES = 4_096

/** A premium: its exact base × its loading factor, rounded half up once. */
const priced = (base: ExactOre, factor: ExactOre): number =>
  halfUp(times(base.numerator, factor.numerator), times(base.denominator, factor.denominator))

const chargeBaseOf = (charge: RecipeCharge, premiums: ReadonlyArray<number>): number => {
  let base = 0
  for (const line of charge.lines) base += premiums[line]!
  return base
}

/** What a charge of a price is levied on: the premiums of its lines (øre). */
export const chargeBase = (computation: PriceComputation, index: number): number =>
  chargeBaseOf(computation.recipe.charges[index]!, computation.premiums)

/**
 * One coverage's premiums scaled by an exact factor, on top of its loadings: what the tariff
 * prices with that coverage's rates (fixed amounts and price-band rates) all multiplied by
 * `factor` exactly — finer than a tariff document can write them (whole øre, whole basis
 * points). The actuary's workbench solves for such a factor; the service never scales.
 */
export interface CoverageScaling {
  readonly coverage: string
  readonly factor: ExactOre
}

const UNSCALED: ExactOre = { numerator: 1, denominator: 1 }

/**
 * Plans a tariff: its rules compiled over a product's facts, each in its slot (the product's, or the shipped
 * products' for a product no catalogue has; or `factNames`), one coverage scaled if asked. `TariffPlans.ts` keeps
 * the plans the engine prices with.
 */
export const makePlan = (
  tariff: Tariff,
  scaling?: CoverageScaling,
  // the facts a tariff's rules may read, each in its slot: its product's (the shipped products' for a product no catalogue has)
  product: ProductDocument | undefined = catalogueOfTariff(tariff).document(tariff.product_name),
  factNames: ReadonlyArray<string> = product === undefined ? FACT_NAMES : factNamesOf(product)
): PricingPlan => {
  const slotOfFact = new Map(factNames.map((name, index) => [name, index]))
  const coverages: Array<string> = []
  const slotOf = new Map<string, number>()
  for (const rule of tariff.rules) {
    if (rule.event.type === "add_coverage" && !slotOf.has(rule.event.params.coverage)) {
      slotOf.set(rule.event.params.coverage, coverages.length)
      coverages.push(rule.event.params.coverage)
    }
  }
  const rules: Array<PlannedRule> = tariff.rules.map((rule, position) => {
    const event = rule.event
    const named =
      event.type === "apply_loading" || event.type === "list_charge_as_coverage" ? undefined : event.params.coverage
    return {
      name: rule.name,
      position,
      instruction: event,
      holds: compileOnSlots(rule.conditions, rule.name, slotOfFact),
      slot: named === undefined ? -1 : (slotOf.get(named) ?? -1),
      slots:
        event.type === "apply_loading"
          ? event.params.coverages.flatMap((coverage) => (slotOf.has(coverage) ? [slotOf.get(coverage)!] : []))
          : []
    }
  })

  /** What the fired rules make of a request on a date: coverages, factors, terms, charges, listing. */
  const recipeOf = (fired: Uint8Array, pricingDate: CalendarDate): Recipe => {
    const firedRules = rules.filter((rule) => fired[rule.position] === 1)
    const addedBy = new Map<number, PlannedRule>()
    for (const rule of firedRules) {
      if (rule.instruction.type !== "add_coverage") continue
      const earlier = addedBy.get(rule.slot)
      if (earlier !== undefined)
        throw new Error(
          `tariff ${tariff.version}: coverage ${coverages[rule.slot]} is added by both "${earlier.name}" and "${rule.name}"`
        )
      addedBy.set(rule.slot, rule)
    }
    const lines = [...addedBy.values()].map((rule): RecipeLine => {
      const loadings = firedRules.flatMap((loading) =>
        loading.instruction.type === "apply_loading"
          ? loading.slots.filter((slot) => slot === rule.slot).map(() => loading)
          : []
      )
      let factor: ExactOre =
        scaling !== undefined && scaling.coverage === coverages[rule.slot] ? scaling.factor : UNSCALED
      for (const loading of loadings) {
        const percent = loading.instruction.type === "apply_loading" ? loading.instruction.params.percent : 0
        factor = { numerator: times(factor.numerator, 100 + percent), denominator: times(factor.denominator, 100) }
      }
      const terms: { deductible_ore: number | undefined; limit_ore: number | undefined } = {
        deductible_ore: undefined,
        limit_ore: undefined
      }
      for (const term of firedRules) {
        if (term.slot !== rule.slot) continue
        if (term.instruction.type === "set_deductible") terms.deductible_ore = term.instruction.params.amount
        if (term.instruction.type === "set_limit") terms.limit_ore = term.instruction.params.amount
      }
      const premium =
        rule.instruction.type === "add_coverage"
          ? rule.instruction.params.premium
          : ({ type: "fixed", amount: 0 } as const)
      const fixed = premium.type === "fixed" ? priced(basePremium(premium, 0), factor) : undefined
      return {
        slot: rule.slot,
        coverage: coverages[rule.slot]!,
        rule,
        premium,
        factor,
        loadings,
        fixed_premium_ore: fixed,
        deductible_ore: terms.deductible_ore,
        limit_ore: terms.limit_ore
      }
    })
    const listings = new Map<string, { readonly id: string; readonly position: number }>()
    for (const rule of firedRules) {
      if (rule.instruction.type === "list_charge_as_coverage")
        listings.set(rule.instruction.params.charge, { id: rule.instruction.params.id, position: rule.position })
    }
    const charges = chargesInForce(tariff, pricingDate).map(
      (charge): RecipeCharge => ({
        charge,
        lines:
          charge.type === "flat"
            ? []
            : lines.flatMap((line, index) =>
                charge.base.coverages.includes(line.coverage) === (charge.base.type === "coverages") ? [index] : []
              ),
        listed_as_coverage: listings.get(charge.charge)
      })
    )
    return {
      lines,
      charges,
      coverages: Object.freeze(listedCoverages(lines, charges).map((coverage) => Object.freeze(coverage)))
    }
  }

  const recipes = new Map<number | string, Recipe>()
  let recipesDate = ""
  // up to 52 rules, the fired flags read as a binary number are an exact key; beyond, as a string
  const keyOf =
    rules.length <= 52
      ? (fired: Uint8Array): number => {
          let key = 0
          for (let index = 0; index < fired.length; index++) key = key * 2 + fired[index]!
          return key
        }
      : (fired: Uint8Array): string => fired.join("")
  const recipeFor = (fired: Uint8Array, pricingDate: CalendarDate): Recipe => {
    // the charges in force change with the date: one generation of recipes per date
    if (pricingDate !== recipesDate || recipes.size >= MAX_RECIPES) {
      recipes.clear()
      recipesDate = pricingDate
    }
    const key = keyOf(fired)
    let recipe = recipes.get(key)
    if (recipe === undefined) {
      recipe = recipeOf(fired, pricingDate)
      recipes.set(key, recipe)
    }
    return recipe
  }

  const plan: PricingPlan = {
    tariff,
    product,
    rules,
    coverages,
    fire: (facts) => {
      const slots = new Array<unknown>(factNames.length)
      for (let index = 0; index < factNames.length; index++) slots[index] = facts[factNames[index]!]
      const fired = new Uint8Array(rules.length)
      for (let index = 0; index < rules.length; index++) if (rules[index]!.holds(slots)) fired[index] = 1
      return fired
    },
    price: (facts, pricingDate, fired) => {
      const recipe = recipeFor(fired, pricingDate)
      const lineCount = recipe.lines.length
      const premiums = new Array<number>(lineCount)
      let annualTotal = 0
      for (let index = 0; index < lineCount; index++) {
        const line = recipe.lines[index]!
        const premium = line.fixed_premium_ore ?? priced(basePremium(line.premium, vehiclePriceOf(facts)), line.factor)
        premiums[index] = premium
        annualTotal += premium
      }
      const chargeCount = recipe.charges.length
      const chargeAmounts = new Array<number>(chargeCount)
      for (let index = 0; index < chargeCount; index++) {
        const { charge } = recipe.charges[index]!
        const amount =
          charge.type === "flat"
            ? charge.amount
            : halfUp(times(chargeBaseOf(recipe.charges[index]!, premiums), charge.rate_basis_points), 10_000)
        chargeAmounts[index] = amount
        annualTotal += amount
      }
      const monthlyExact = { numerator: times(annualTotal, 100 + tariff.monthly_surcharge_percent), denominator: 1200 }
      return {
        plan,
        facts,
        pricing_date: pricingDate,
        fired,
        recipe,
        premiums,
        charge_amounts: chargeAmounts,
        annual_total_ore: annualTotal,
        monthly_exact: monthlyExact,
        annually: halfUp(annualTotal, 100),
        monthly: roundUp({ numerator: monthlyExact.numerator, denominator: times(monthlyExact.denominator, 100) })
      }
    }
  }
  return plan
}

/** The coverages in tariff order, amounts in whole kroner, with the charges the rules list as coverages merged in. */
const listedCoverages = (lines: ReadonlyArray<RecipeLine>, charges: ReadonlyArray<RecipeCharge>): Array<Coverage> => {
  const entries: Array<{ readonly position: number; readonly coverage: Coverage }> = lines.map((line) => ({
    position: line.rule.position,
    coverage: {
      id: line.rule.instruction.type === "add_coverage" ? line.rule.instruction.params.id : "",
      name: line.coverage,
      ...(line.deductible_ore === undefined ? {} : { deductible: kronerHalfUp(line.deductible_ore) }),
      ...(line.limit_ore === undefined ? {} : { limit: kronerHalfUp(line.limit_ore) })
    }
  }))
  for (const { charge, listed_as_coverage: listed } of charges) {
    if (listed !== undefined)
      entries.push({ position: listed.position, coverage: { id: listed.id, name: charge.charge } })
  }
  // stable: a listed charge and the line whose rule lists it keep their tariff order
  return entries.sort((a, b) => a.position - b.position).map((entry) => entry.coverage)
}
