/**
 * Where the impact view takes its portfolio: a file input, in a fieldset a
 * file can be dropped on. The input is made once and kept across redraws, so
 * that it still holds the file chosen.
 */
import { h, uniqueId } from "../Dom.js"

export interface PortfolioDrop {
  readonly input: HTMLInputElement
  /** Where a problem with the portfolio is told. */
  readonly message: HTMLElement
  /** The fieldset, its hint saying what was chosen (undefined: nothing yet). */
  readonly fieldset: (chosen: File | undefined) => HTMLElement
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

/** The portfolio's input and drop zone; `choose` is told each file chosen or dropped. */
export const portfolioDrop = (choose: (file: File | undefined) => void): PortfolioDrop => {
  const id = uniqueId("portfolio")
  const message = h("span", { class: "message", id: `${id}-message` })
  const input = h("input", {
    id,
    name: "portfolio",
    type: "file",
    accept: ".csv,text/csv",
    "aria-describedby": `${id}-hint ${id}-message`,
    onchange: (event) => choose((event.target as HTMLInputElement).files?.[0])
  })
  const fieldset = (chosen: File | undefined) =>
    h(
      "fieldset",
      {
        class: "portfolio-drop",
        ondragover: (event) => {
          event.preventDefault()
          ;(event.currentTarget as HTMLElement).classList.add("dragging")
        },
        ondragleave: (event) => (event.currentTarget as HTMLElement).classList.remove("dragging"),
        ondrop: (event) => {
          event.preventDefault()
          ;(event.currentTarget as HTMLElement).classList.remove("dragging")
          const dropped = (event as DragEvent).dataTransfer?.files
          if (dropped === undefined || dropped.length === 0) return
          // the input shows the file dropped, as one chosen through it
          input.files = dropped
          choose(dropped[0])
        }
      },
      h("legend", {}, "Portfolio"),
      h(
        "div",
        { class: "field" },
        h("label", { for: id }, "Portfolio file (CSV)"),
        input,
        h(
          "span",
          { class: "hint", id: `${id}-hint` },
          chosen === undefined
            ? "or drop it here. One policy a line; a header naming the product parameters and optionally policy_id, product_name, feature, weight and current_premium (kasko portfolio generate makes one)"
            : `${chosen.name}, ${megabytes(chosen.size)}: read here, in slices, never sent anywhere`
        ),
        message
      )
    )
  return { input, message, fieldset }
}
