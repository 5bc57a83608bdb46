/** Why a case is not priced: each violation with the field it is about. */
import type { FieldViolation } from "../../model/CasePrice.js"
import { h } from "../Dom.js"

export const violationList = (violations: ReadonlyArray<FieldViolation>): HTMLElement =>
  h(
    "ul",
    { class: "violations" },
    violations.map((violation) => h("li", {}, h("code", {}, violation.field), " ", violation.message))
  )
