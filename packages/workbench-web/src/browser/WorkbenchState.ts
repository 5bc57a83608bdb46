/** What the views share: the case being priced, the grid's axes, and each view's choices. */
import type { ProductCatalogue } from "@kasko/core/actuarial"
import { caseOfProduct, IN_FORCE, inForceOn, sampleCase, type CaseInput } from "../model/CaseInput.js"
import { defaultAxisText } from "../model/GridAxis.js"
import { DEFAULT_IMPACT_CHOICES, type ImpactChoices } from "../model/ImpactSettings.js"
import type { ProductDraft } from "../model/ProductDraft.js"
import { productVersionFiles } from "../model/ProductFolders.js"
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
  /** The product version the product editor's text was opened from (`<folder>/product.json`, …). */
  readonly productOpened: string
  /** The product editor's text, once edited: in its product's place in every view once it has no error. */
  readonly productDraft: ProductDraft | undefined
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

// the seed products' axes: the premium's spread over the vehicle's price and the youngest driver's age
const FIRST_AXES = ["vehicle_price", "youngest_user_age"] as const

/**
 * The grid's axes for a case's product (the catalogue in force on its date): the axes as they are while the product
 * has both their parameters, else the seed products' first axes where it has them, then its other parameters, each
 * starting at its default axis.
 */
export const axesOfProduct = (
  state: Pick<WorkbenchState, "x" | "y">,
  productName: string,
  catalogue: ProductCatalogue.Catalogue
): { readonly x: AxisInput; readonly y: AxisInput } => {
  const parameters = catalogue.document(productName)?.parameters ?? []
  const has = (name: string) => parameters.some((parameter) => parameter.name === name)
  if (has(state.x.parameter) && has(state.y.parameter)) return { x: state.x, y: state.y }
  const [x, y] = [...FIRST_AXES.filter(has), ...parameters.map((parameter) => parameter.name)].filter(
    (name, index, names) => names.indexOf(name) === index
  )
  const axis = (name: string | undefined): AxisInput =>
    name === undefined ? { parameter: "", values: "" } : { parameter: name, values: defaultAxisText(name, parameters) }
  return { x: axis(x), y: axis(y) }
}

/** The state with the case of another product (or of its product as the catalogue now defines it). */
export const withProduct = (
  state: WorkbenchState,
  productName: string,
  catalogue: ProductCatalogue.Catalogue
): WorkbenchState => ({
  ...state,
  case: caseOfProduct(state.case, productName, catalogue),
  ...axesOfProduct(state, productName, inForceOn(catalogue, state.case.pricing_date))
})

/** Where the page starts: a sample case priced with the versions in force today. */
export const initialState = (workspace: Workspace): WorkbenchState => {
  const versions = workspace.versionsFor(workspace.catalogue)
  const start = caseOfProduct(
    sampleCase(workspace.today),
    sampleCase(workspace.today).product_name,
    workspace.catalogue
  )
  const leasing = versionsOf(versions, start.product_name)
  const current = currentVersion(versions, start.product_name, workspace.today)
  const axes = axesOfProduct(
    {
      x: { parameter: FIRST_AXES[0], values: defaultAxisText(FIRST_AXES[0]) },
      y: { parameter: FIRST_AXES[1], values: defaultAxisText(FIRST_AXES[1]) }
    },
    start.product_name,
    inForceOn(workspace.catalogue, start.pricing_date)
  )
  return {
    case: { ...start, tariff: IN_FORCE },
    ...axes,
    compare: { old: leasing.at(0)?.key ?? "", new: leasing.at(-1)?.key ?? "", cases: ALL_TABLES },
    // the version in force against the newest: what a change about to go live does to the book
    impact: {
      ...DEFAULT_IMPACT_CHOICES,
      product: start.product_name,
      old: current?.key ?? leasing.at(0)?.key ?? "",
      new: leasing.at(-1)?.key ?? ""
    },
    check: current?.key ?? versions[0]?.key ?? "",
    opened: current?.key ?? versions[0]?.key ?? "",
    draft: undefined,
    productOpened: productVersionFiles(workspace.products?.folders ?? [])[0]?.key ?? "",
    productDraft: undefined
  }
}
