/** What the views share: the case being priced, the grid's axes, and each view's choices. */
import { IN_FORCE, sampleCase, type CaseInput } from "../model/CaseInput.js"
import { defaultAxisText } from "../model/GridAxis.js"
import { DEFAULT_IMPACT_CHOICES, type ImpactChoices } from "../model/ImpactSettings.js"
import { versionsOf, type TariffVersion } from "../model/TariffVersion.js"
import type { Workspace } from "./Workspace.js"

export interface AxisInput {
  readonly parameter: string
  /** As `kasko price-grid` takes it: `from:to:step` or `v1,v2,…`. */
  readonly values: string
}

export interface WorkbenchState {
  readonly case: CaseInput
  readonly x: AxisInput
  readonly y: AxisInput
  /** Version keys of the compare view, and which golden table's cases it re-prices (`ALL_TABLES` for all). */
  readonly compare: { readonly old: string; readonly new: string; readonly cases: string }
  /** The impact view's product, its two versions and the options as typed. */
  readonly impact: ImpactChoices & { readonly product: string }
  /** The version key the check view runs. */
  readonly check: string
  /** The version key the editor's text was opened from. */
  readonly opened: string
  /** The editor's text, once edited: a version of its own, offered in every view. */
  readonly draft: TariffVersion | undefined
}

export const ALL_TABLES = "all"

/** The version of a product in force on a date, else its latest (proposals are never in force): what a view shows first. */
export const currentVersion = (
  versions: ReadonlyArray<TariffVersion>,
  productName: string,
  date: string
): TariffVersion | undefined => {
  const candidates = versionsOf(versions, productName).filter((version) => version.proposal !== true)
  return candidates.filter((version) => version.tariff.effective_from <= date).at(-1) ?? candidates.at(-1)
}

/** Where the page starts: a sample case priced with the versions in force today. */
export const initialState = (workspace: Workspace): WorkbenchState => {
  const start = sampleCase(workspace.today)
  const leasing = versionsOf(workspace.versions, start.product_name)
  const current = currentVersion(workspace.versions, start.product_name, workspace.today)
  return {
    case: { ...start, tariff: IN_FORCE },
    x: { parameter: "vehicle_price", values: defaultAxisText("vehicle_price") },
    y: { parameter: "youngest_user_age", values: defaultAxisText("youngest_user_age") },
    compare: { old: leasing.at(0)?.key ?? "", new: leasing.at(-1)?.key ?? "", cases: ALL_TABLES },
    // the version in force against the newest: what a change about to go live does to the book
    impact: {
      ...DEFAULT_IMPACT_CHOICES,
      product: start.product_name,
      old: current?.key ?? leasing.at(0)?.key ?? "",
      new: leasing.at(-1)?.key ?? ""
    },
    check: current?.key ?? workspace.versions[0]?.key ?? "",
    opened: current?.key ?? workspace.versions[0]?.key ?? "",
    draft: undefined
  }
}
