/** Labelled form controls the views share. */
import { versionLabel, type TariffVersion } from "../../model/TariffVersion.js"
import { h, uniqueId } from "../Dom.js"

/** A labelled select. */
export const selectField = (
  label: string,
  name: string,
  value: string,
  options: ReadonlyArray<readonly [value: string, title: string]>,
  onChange: (value: string) => void
): HTMLElement => {
  const id = uniqueId(name)
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h(
      "select",
      { id, name, value, onchange: (event) => onChange((event.target as HTMLSelectElement).value) },
      options.map(([optionValue, title]) => h("option", { value: optionValue }, title))
    )
  )
}

/** A labelled select of tariff versions. */
export const versionField = (
  label: string,
  name: string,
  value: string,
  versions: ReadonlyArray<TariffVersion>,
  onChange: (value: string) => void
): HTMLElement =>
  selectField(
    label,
    name,
    value,
    versions.map((version) => [version.key, versionLabel(version)] as const),
    onChange
  )
