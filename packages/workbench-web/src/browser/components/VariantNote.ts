/**
 * Beside the case: which variant it is and why, the rule, and what the
 * variant changes in its answer — the case priced as Standard and as
 * Extended with the same tariff, side by side.
 */
import type { ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { ReportFigures } from "@kasko/workbench/browser"
import {
  explainVariant,
  onlyIn,
  variantRuleText,
  variantTitle,
  variantVerdictText,
  type VariantAnswer
} from "../../model/VariantExplanation.js"
import { type CaseInput, inForceOn } from "../../model/CaseInput.js"
import { h, replaceChildren } from "../Dom.js"

export interface VariantNote {
  readonly element: HTMLElement
  /** Draws the note for the case as it is now, priced with these tariffs, of the catalogue's product. */
  readonly update: (
    input: CaseInput,
    tariffs: ReadonlyArray<Tariff.Tariff>,
    catalogue: ProductCatalogue.Catalogue
  ) => void
}

const answerColumn = (answer: VariantAnswer, only: ReadonlyArray<string>, current: boolean) =>
  h(
    "div",
    { class: current ? "variant-answer current" : "variant-answer", "data-variant": answer.variant },
    h("h4", {}, `As ${variantTitle(answer.variant)}${current ? " (this case)" : ""}`),
    h("p", {}, `${ReportFigures.wholeMoney(answer.annually)} kr a year`),
    h("p", {}, "Coverages: ", answer.coverages.join(", ")),
    h("p", { "data-only": answer.variant }, `Only ${variantTitle(answer.variant)}: `, only.join(", ") || "none"),
    answer.listed_charges.length === 0
      ? null
      : h("p", {}, "Charges listed as coverages: ", answer.listed_charges.join(", ")),
    h("p", {}, "A quote's product_name: ", h("code", {}, answer.quoted_product_name))
  )

export const variantNote = (): VariantNote => {
  const verdict = h("p", { class: "variant-verdict", "data-variant": "" })
  const comparison = h("div", { class: "variant-answers" })
  const rule = h("p", { class: "variant-rule" }, variantRuleText())
  const element = h(
    "section",
    { class: "variant-note", "aria-label": "Variant", "aria-live": "polite" },
    h("h3", {}, "Variant: Standard or Extended"),
    verdict,
    rule,
    h("p", { class: "hint" }, "What the variant changes in this case's answer, the tariff and all else unchanged:"),
    comparison
  )
  return {
    element,
    update: (input, tariffs, catalogue) => {
      const explanation = explainVariant(input, tariffs, catalogue)
      rule.textContent = variantRuleText(input.product_name, inForceOn(catalogue, input.pricing_date))
      verdict.dataset["variant"] = explanation.variant
      verdict.textContent = variantVerdictText(explanation)
      const answers = explanation.answers
      if (answers === undefined) {
        replaceChildren(comparison, h("p", {}, "(not priced: see the form's messages)"))
        return
      }
      replaceChildren(
        comparison,
        (["standard", "extended"] as const).map((variant) =>
          answerColumn(answers[variant], onlyIn(answers, variant), variant === explanation.variant)
        )
      )
    }
  }
}
