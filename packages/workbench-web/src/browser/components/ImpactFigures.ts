/**
 * The figures of a finished impact test, as `kasko tariff impact` prints
 * them: totals before and after, capping, current premiums, the target's
 * factor (or why it is out of reach), the rejected and uncompared cases.
 */
import { type ImpactResult, ReportFigures, unreachableFactorText } from "@kasko/workbench/browser"
import { WHOLE_PREMIUM } from "../../model/ImpactSettings.js"
import { h } from "../Dom.js"

const { count, money, percent, plural, signedMoney } = ReportFigures

/** The figures of a finished test: totals, capping, the target, the rejected and uncompared cases. */
export const impactFigures = (result: ImpactResult) => {
  const { report, target } = result
  const { totals } = report
  const entries: Array<readonly [string, string, string]> = [
    ["policies", "Policies priced", `${count(totals.policies)} (exposure ${totals.exposure.toFixed(2)})`],
    [
      "affected",
      "Affected",
      `${count(totals.affected)}: ${count(totals.increased)} up, ${count(totals.decreased)} down, ${count(totals.unchanged)} unchanged`
    ],
    ["old", "Premium before", `${money(totals.old_kroner)} kr`],
    [
      "new",
      "Premium after",
      `${money(totals.new_kroner)} kr: ${signedMoney(totals.change_kroner)} kr (${percent(totals.change_percent, 4)})`
    ]
  ]
  if (report.caps !== null)
    entries.push([
      "capped",
      "Capped",
      `${money(totals.capped_kroner ?? 0)} kr (${percent(totals.capped_change_percent, 4)}) — increases held at ${report.caps.increase_percent === null ? "no cap" : `+${report.caps.increase_percent} %`}, decreases at ${report.caps.decrease_percent === null ? "no cap" : `−${report.caps.decrease_percent} %`}: ${count(report.caps.capped_increases)} increases and ${count(report.caps.capped_decreases)} decreases held back`
    ])
  if (report.current !== null)
    entries.push([
      "current",
      "Current premiums",
      `${money(report.current.current_kroner)} kr for ${count(report.current.policies)} policies; the old version prices them at ${money(report.current.old_kroner)} kr; ${count(report.current.differing)} differ by 0.50 kr or more`
    ])
  if (target !== null) {
    const on = target.on === WHOLE_PREMIUM ? "the whole premium" : `the rates of ${target.on}`
    const outcome = `${money(target.achieved_kroner)} kr (${percent(target.achieved_change_percent, 4)}), ${signedMoney(target.difference_kroner)} kr from the target of ${money(target.target_kroner)} kr`
    const repricings =
      target.passes > 0
        ? `found in ${plural(target.passes, "re-pricing")} of the book`
        : target.reachable
          ? "no re-pricing: the book was already on target"
          : "no re-pricing: the book's own pass shows the target out of reach"
    if (!target.reachable)
      entries.push([
        "unreachable",
        "Target out of reach",
        `${percent(target.target_percent, 4)} on the ${target.applies_to}: unreachable: ${target.unreachable_reason}`
      ])
    entries.push(
      [
        "factor",
        target.reachable ? "Factor" : "Nearest factor",
        target.reachable
          ? `${target.factor} on ${on}, for ${percent(target.target_percent, 4)} on the ${target.applies_to}`
          : `${target.factor} on ${on}, ${unreachableFactorText(target)}`
      ],
      [
        "target",
        "With the factor",
        `${outcome}${target.reachable && !target.within_one_krone ? " — not within one krone: no factor of 15 decimals gets closer" : ""}${target.uncapped_kroner === undefined ? "" : `; uncapped with the factor ${money(target.uncapped_kroner)} kr`}; ${repricings}`
      ]
    )
  }
  entries.push([
    "rejected",
    "Rejected",
    report.rejected.cases === 0
      ? "none"
      : `${plural(report.rejected.cases, "case")} failed validation, listed by reason below`
  ])
  for (const entry of report.not_compared)
    entries.push([
      "not-compared",
      "Not compared",
      `${plural(entry.cases, "case")} of ${entry.product_name} (a side has no tariff of it)`
    ])
  return h(
    "dl",
    { class: "totals impact-figures" },
    entries.map(([key, title, text]) => [
      h("dt", key === "unreachable" ? { class: "problem" } : {}, title),
      h("dd", key === "unreachable" ? { "data-figure": key, class: "problem" } : { "data-figure": key }, text)
    ])
  )
}
