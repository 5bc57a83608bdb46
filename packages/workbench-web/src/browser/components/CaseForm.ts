/**
 * The case form, generated from the product definition: product (every
 * product of the page's catalogue), feature, tariff version and pricing date,
 * then one field per parameter of the case's product with the catalogue's
 * title, its options and default; each field shows the message the offer
 * Schema gives for it.
 */
import { type CaseInput, IN_FORCE, inForceOn, parameterDefinitionsOf } from "../../model/CaseInput.js"
import type { FieldViolation } from "../../model/CasePrice.js"
import { versionLabel, versionsOf } from "../../model/TariffVersion.js"
import type { App } from "../App.js"
import { h, uniqueId } from "../Dom.js"
import { withProduct } from "../WorkbenchState.js"
import { selectField } from "./Fields.js"

export interface CaseFormOptions {
  /** Parameters another control sets (a grid's axes): left out of the form. */
  readonly without?: ReadonlyArray<string>
  /** Whether the case's product and tariff version are chosen here (the compare view chooses them above its form). */
  readonly chooseVersion?: boolean
  /** After a parameter or the date changed: the input event, for timing. */
  readonly onInput: (event: Event) => void
  /** After the product, feature or tariff changed: the form itself must be drawn again. */
  readonly onStructureChange: () => void
}

export interface CaseForm {
  readonly element: HTMLElement
  /** Shows the violations at their fields (and those of no field above them). */
  readonly showViolations: (violations: ReadonlyArray<FieldViolation>) => void
}

const NOT_SENT = ""

/** What a product picker adds to the name of the product the product editor's draft stands in for. */
export const draftMark = (app: App, name: string): string =>
  app.state.productDraft?.document?.product_name === name ? " — draft, unsaved" : ""

/** Draws the form for the app's current case. */
export const caseForm = (app: App, options: CaseFormOptions): CaseForm => {
  const catalogue = app.catalogue
  const input = app.state.case
  // the fields are those of the product's version in force on the pricing date, which the engine decodes the case by
  const inForce = inForceOn(catalogue, input.pricing_date)
  const product = inForce.definition(input.product_name)
  const features = product?.features ?? []
  const feature = features.find((candidate) => candidate.name === input.feature) ?? features[0]
  const setCase = (change: Partial<CaseInput>) =>
    app.store.update((state) => ({ ...state, case: { ...state.case, ...change } }))

  const tariffOptions: Array<readonly [string, string]> = [
    [IN_FORCE, "the version in force on the pricing date"],
    ...versionsOf(app.versions(), input.product_name).map((version) => [version.key, versionLabel(version)] as const)
  ]
  const dateId = uniqueId("pricing_date")
  const dateMessageId = uniqueId("pricing_date-message")
  const messages = new Map<string, { readonly control: HTMLElement; readonly message: HTMLElement }>()
  const general = h("ul", { class: "violations", "aria-live": "polite" })

  const dateInput = h("input", {
    id: dateId,
    name: "pricing_date",
    type: "date",
    required: true,
    value: input.pricing_date,
    "aria-describedby": dateMessageId,
    oninput: (event) => {
      setCase({ pricing_date: (event.target as HTMLInputElement).value })
      // a date another version of the product is in force on has another form
      if (inForceOn(catalogue, app.state.case.pricing_date) !== inForce) options.onStructureChange()
      else options.onInput(event)
    }
  })
  const dateMessage = h("span", { class: "message", id: dateMessageId })
  messages.set("pricing_date", { control: dateInput, message: dateMessage })

  const caseControls = h(
    "fieldset",
    { class: "case-controls" },
    h("legend", {}, "Case"),
    options.chooseVersion === false
      ? null
      : selectField(
          "Product",
          "product_name",
          input.product_name,
          catalogue.productNames.map(
            (name) => [name, `${catalogue.definition(name)!.title} (${name})${draftMark(app, name)}`] as const
          ),
          (value) => {
            app.store.update((state) => withProduct(state, value, catalogue))
            options.onStructureChange()
          }
        ),
    selectField(
      "Feature",
      "feature",
      feature?.name ?? "",
      features.map((candidate) => [candidate.name, `${candidate.title} (${candidate.name})`] as const),
      (value) => {
        setCase({ feature: value })
        options.onStructureChange()
      }
    ),
    options.chooseVersion === false
      ? null
      : selectField(
          "Tariff version",
          "tariff",
          tariffOptions.some(([key]) => key === input.tariff) ? input.tariff : IN_FORCE,
          tariffOptions,
          (value) => {
            setCase({ tariff: value })
            options.onStructureChange()
          }
        ),
    h("div", { class: "field" }, h("label", { for: dateId }, "Pricing date"), dateInput, dateMessage)
  )

  const parameterFields = parameterDefinitionsOf(input.product_name, inForce)
    .filter((definition) => !(options.without ?? []).includes(definition.name))
    .map((definition) => {
      const id = uniqueId(definition.name)
      const messageId = `${id}-message`
      const hintId = `${id}-hint`
      const priced = feature?.parameter_refs.includes(definition.name) ?? false
      const value = input.parameters[definition.name] ?? definition.default ?? NOT_SENT
      const onInput = (event: Event) => {
        const target = event.target as HTMLInputElement | HTMLSelectElement
        setCase({ parameters: { ...app.state.case.parameters, [definition.name]: target.value } })
        options.onInput(event)
      }
      const described = priced ? messageId : `${hintId} ${messageId}`
      const control =
        definition.type === "enum"
          ? h(
              "select",
              { id, name: definition.name, value, "aria-describedby": described, onchange: onInput },
              h("option", { value: NOT_SENT }, "— not sent —"),
              (definition.options ?? []).map((option) =>
                h("option", { value: option.id }, `${option.title} (${option.id})`)
              )
            )
          : h("input", {
              id,
              name: definition.name,
              type: definition.type === "date" ? "date" : "text",
              inputmode: definition.type === "number" ? "numeric" : undefined,
              autocomplete: "off",
              value,
              "aria-describedby": described,
              oninput: onInput
            })
      const message = h("span", { class: "message", id: messageId })
      messages.set(definition.name, { control, message })
      return h(
        "div",
        { class: "field" },
        h(
          "label",
          { for: id },
          h("span", { lang: "da" }, definition.title),
          " ",
          h("code", {}, definition.name),
          definition.required ? null : h("span", { class: "optional" }, " (optional)")
        ),
        control,
        priced ? null : h("span", { class: "hint", id: hintId }, "validated, not priced by this product"),
        message
      )
    })

  const element = h(
    "form",
    { class: "case-form", "aria-label": "Case to price", onsubmit: (event) => event.preventDefault() },
    caseControls,
    h("fieldset", { class: "parameters" }, h("legend", {}, "Parameters"), parameterFields),
    general
  )

  const showViolations = (violations: ReadonlyArray<FieldViolation>) => {
    const byField = new Map<string, Array<string>>()
    const elsewhere: Array<FieldViolation> = []
    for (const violation of violations) {
      if (messages.has(violation.field))
        byField.set(violation.field, [...(byField.get(violation.field) ?? []), violation.message])
      else elsewhere.push(violation)
    }
    for (const [field, { control, message }] of messages) {
      const texts = byField.get(field)
      message.textContent = texts === undefined ? "" : texts.join("; ")
      if (texts === undefined) control.removeAttribute("aria-invalid")
      else control.setAttribute("aria-invalid", "true")
    }
    general.replaceChildren(
      ...elsewhere.map((violation) => h("li", {}, h("code", {}, violation.field), " ", violation.message))
    )
  }

  return { element, showViolations }
}
