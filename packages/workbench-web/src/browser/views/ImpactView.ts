/**
 * Impact: what a new tariff version does to a whole book. Two versions of a
 * product and a portfolio file (chosen, or dropped on the form); the book is
 * re-rated in the page's web workers by the production engine — the worker
 * job and pool `kasko tariff impact` runs on its threads — and reported as the
 * command reports it (ImpactResultView.ts). This view holds the form, the
 * progress and the session's outcome.
 */
import { ProductCatalogue, ProductDocument, type Tariff } from "@kasko/core/actuarial"
import { ReportFigures } from "@kasko/workbench/browser"
import { Result, Schema } from "effect"
import {
  type ImpactChoices,
  type ImpactFieldProblem,
  impactCommandLine,
  impactSettingsOf,
  shellLine,
  WHOLE_PREMIUM
} from "../../model/ImpactSettings.js"
import { DRAFT_KEY, versionsOf } from "../../model/TariffVersion.js"
import { isFolderTariffFile } from "../../model/ProductFolders.js"
import type { App } from "../App.js"
import { selectField, versionField } from "../components/Fields.js"
import { portfolioDrop } from "../components/PortfolioDrop.js"
import { h, redrawKeepingFocus, replaceChildren, uniqueId } from "../Dom.js"
import { impactResultView } from "./ImpactResultView.js"

const { plural } = ReportFigures

/** The coverages a tariff adds: what a target's factor can be on, besides the whole premium. */
const coveragesOf = (tariff: Tariff.Tariff | undefined): Array<string> => [
  ...new Set(
    (tariff?.rules ?? []).flatMap((rule) => (rule.event.type === "add_coverage" ? [rule.event.params.coverage] : []))
  )
]

const encodeProduct = Schema.encodeSync(ProductDocument.ProductDocument)

/** Whether a version's key names a tariff of a product folder: `<folder>/tariffs/<version>.json`. */
const isFolderTariffKey = (products: { readonly folders: ReadonlyArray<{ readonly folder: string }> }, key: string) => {
  const slash = key.indexOf("/")
  return (
    products.folders.some(({ folder }) => folder === key.slice(0, slash)) && isFolderTariffFile(key.slice(slash + 1))
  )
}
export const renderImpactView = (app: App): HTMLElement => {
  const session = app.impact
  const view = h("section", { class: "view impact-view", "aria-labelledby": "impact-title" })
  const status = h("div", { class: "impact-status", role: "status" })
  const problem = h("p", { class: "problem", role: "alert" })
  const results = h("div", { class: "impact-results", "aria-live": "polite" })
  const messages = new Map<keyof ImpactChoices | "portfolio", HTMLElement>()
  const controls = new Map<keyof ImpactChoices | "portfolio", HTMLElement>()

  const choices = (): ImpactChoices => app.state.impact
  const setChoices = (change: Partial<ImpactChoices> & { readonly product?: string }) =>
    app.store.update((state) => ({ ...state, impact: { ...state.impact, ...change } }))

  const showProblems = (problems: ReadonlyArray<{ readonly field: string; readonly message: string }>) => {
    for (const [field, message] of messages) {
      const found = problems.filter((entry) => entry.field === field).map((entry) => entry.message)
      message.textContent = found.join("; ")
      const control = controls.get(field)
      if (found.length === 0) control?.removeAttribute("aria-invalid")
      else control?.setAttribute("aria-invalid", "true")
    }
  }

  /** The file a version is read from on the command line: a product folder's tariff from the products directory. */
  const versionFile = (key: string): string => {
    if (key === DRAFT_KEY) return "draft.json"
    const version = app.version(key)
    if (version?.proposal === true) return key.replace(/ \(proposal\)$/, "")
    const products = app.workspace.products
    if (products !== undefined && isFolderTariffKey(products, key))
      return `${products.directory.replace(/\/$/, "")}/${key}`
    return `${app.workspace.directory.replace(/\/$/, "")}/${key}`
  }

  /** The product documents the page's catalogue adds to the shipped products or puts in their place, as JSON. */
  const addedProducts = (): ReadonlyArray<unknown> =>
    app.catalogue.versions
      .filter((document) => !ProductCatalogue.shipped.versions.includes(document))
      .map((document) => encodeProduct(document))

  const run = () => {
    const chosen = choices()
    const [before, after] = [app.version(chosen.old)?.tariff, app.version(chosen.new)?.tariff]
    // a coverage chosen for another new version is not this one's: the factor is on the whole premium
    const current = coveragesOf(after).includes(chosen.factor_on) ? chosen : { ...chosen, factor_on: WHOLE_PREMIUM }
    const settings = impactSettingsOf(current)
    const problems: Array<ImpactFieldProblem | { field: "portfolio"; message: string }> = Result.isFailure(settings)
      ? [...settings.failure]
      : []
    if (session.portfolio === undefined)
      problems.push({ field: "portfolio", message: "choose a portfolio file (CSV), or drop one here" })
    showProblems(problems)
    if (before === undefined || after === undefined || before.product_name !== after.product_name) {
      problem.textContent = "Choose two versions of one product."
      return
    }
    problem.textContent = ""
    if (Result.isFailure(settings) || session.portfolio === undefined) return
    const file = session.portfolio
    session.start({
      file,
      old: before,
      new: after,
      products: addedProducts(),
      settings: settings.success,
      choices: chosen,
      command: shellLine(
        impactCommandLine(
          versionFile(current.old),
          versionFile(current.new),
          file.name,
          settings.success,
          app.workspace.products?.directory
        )
      )
    })
  }

  const choosePortfolio = (file: File | undefined) => {
    if (file === undefined) return
    session.portfolio = file
    draw()
    run()
  }

  const drawStatus = () => {
    const progress = session.progress
    if (session.isRunning) {
      const file = session.portfolio
      const share = progress === undefined ? 0 : progress.bytes_read / Math.max(1, progress.bytes)
      const pass =
        progress === undefined
          ? "Reading the header"
          : progress.pass === 1
            ? "Pricing the book"
            : `Re-pricing the book to solve the target's factor (pass ${progress.pass})`
      replaceChildren(
        status,
        h("progress", { max: 100, value: Math.round(share * 100), "aria-label": "Share of the portfolio read" }),
        ` ${pass}: ${Math.round(share * 100)} % of ${file?.name ?? "the file"} read`,
        progress === undefined ? "" : `, on ${plural(progress.workers, "web worker")}`,
        "…"
      )
      status.setAttribute("data-state", "running")
      return
    }
    status.setAttribute("data-state", session.outcome?.kind ?? "idle")
    replaceChildren(status, session.outcome?.kind === "stopped" ? `Stopped: ${session.outcome.file}.` : "")
  }

  /** Dims a result that the fields no longer describe. */
  const markStale = () => {
    const outcome = session.outcome
    const current = choices()
    const ran = outcome?.kind === "done" ? outcome.choices : undefined
    results.classList.toggle(
      "stale",
      ran !== undefined && (Object.keys(ran) as Array<keyof ImpactChoices>).some((key) => ran[key] !== current[key])
    )
  }

  const drawOutcome = () => {
    drawStatus()
    const outcome = session.outcome
    stopButton.disabled = !session.isRunning
    results.setAttribute("aria-busy", session.isRunning ? "true" : "false")
    if (outcome?.kind === "failed") problem.textContent = outcome.problem
    else if (session.isRunning || outcome?.kind === "done") problem.textContent = ""
    replaceChildren(results, outcome?.kind === "done" ? impactResultView(outcome) : null)
    markStale()
  }

  const portfolio = portfolioDrop((file) => choosePortfolio(file))

  const stopButton = h(
    "button",
    { type: "button", name: "stop", disabled: true, onclick: () => session.stop() },
    "Stop"
  ) as HTMLButtonElement

  const optionField = (field: keyof ImpactChoices, label: string, hint: string, placeholder: string): HTMLElement => {
    const id = uniqueId(field)
    const message = h("span", { class: "message", id: `${id}-message` })
    const control = h("input", {
      id,
      name: field,
      type: "text",
      autocomplete: "off",
      spellcheck: "false",
      placeholder,
      value: choices()[field],
      "aria-describedby": `${id}-hint ${id}-message`,
      oninput: (event) => {
        setChoices({ [field]: (event.target as HTMLInputElement).value })
        markStale()
      }
    })
    messages.set(field, message)
    controls.set(field, control)
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      control,
      h("span", { class: "hint", id: `${id}-hint` }, hint),
      message
    )
  }

  const draw = () =>
    redrawKeepingFocus(view, () => {
      messages.clear()
      controls.clear()
      const current = choices()
      const product = app.state.impact.product
      const versions = versionsOf(app.versions(), product)
      const newTariff = app.version(current.new)?.tariff
      const coverages = coveragesOf(newTariff)
      messages.set("portfolio", portfolio.message)
      controls.set("portfolio", portfolio.input)
      replaceChildren(
        view,
        h("h2", { id: "impact-title" }, "Impact on a portfolio"),
        h(
          "p",
          { class: "hint" },
          "A book of policies re-rated under two versions in this page's web workers, by the engine that prices in production: the figures of kasko tariff impact."
        ),
        h(
          "form",
          {
            class: "impact-form",
            "aria-label": "Impact test",
            onsubmit: (event) => {
              event.preventDefault()
              run()
            }
          },
          h(
            "fieldset",
            {},
            h("legend", {}, "Versions"),
            selectField(
              "Product",
              "impact-product",
              product,
              app.catalogue.productNames.map((name) => [name, name] as const),
              (value) => {
                const candidates = versionsOf(app.versions(), value)
                setChoices({ product: value, old: candidates.at(0)?.key ?? "", new: candidates.at(-1)?.key ?? "" })
                draw()
              }
            ),
            versionField("Old version", "impact-old", current.old, versions, (key) => {
              setChoices({ old: key })
              draw()
            }),
            versionField("New version", "impact-new", current.new, versions, (key) => {
              setChoices({ new: key })
              draw()
            }),
            optionField(
              "pricing_date",
              "Pricing date",
              "both versions price on it; empty: the new version's effective_from",
              newTariff?.effective_from ?? "YYYY-MM-DD"
            )
          ),
          portfolio.fieldset(session.portfolio),
          h(
            "fieldset",
            {},
            h("legend", {}, "Caps and target"),
            optionField("cap_increase", "Cap on increases", "the largest increase a policy gets, like 10%", "none"),
            optionField("cap_decrease", "Cap on decreases", "the largest decrease, like 5%", "none"),
            optionField(
              "target",
              "Target change",
              "solve for the factor that moves the book this much (the capped book when capped), like +2%",
              "none"
            ),
            selectField(
              "Factor on",
              "factor_on",
              coverages.includes(current.factor_on) ? current.factor_on : WHOLE_PREMIUM,
              [
                [WHOLE_PREMIUM, "the whole premium"] as const,
                ...coverages.map((coverage) => [coverage, `the rates of ${coverage} (solved by re-pricing)`] as const)
              ],
              (value) => {
                setChoices({ factor_on: value })
                markStale()
              }
            )
          ),
          h(
            "fieldset",
            {},
            h("legend", {}, "Report"),
            optionField("bands", "Bands of change", "edges in per cent, 0 among them", "-20,-10,-5,-2,0,2,5,10,20"),
            optionField("top", "Movers each way", "how many of the largest increases and decreases", "10"),
            h(
              "div",
              { class: "run-controls" },
              h("button", { type: "submit", class: "primary" }, "Run the impact test"),
              " ",
              stopButton
            )
          )
        ),
        status,
        problem,
        results
      )
      drawOutcome()
    })

  session.onProgress = () => {
    if (view.isConnected) drawStatus()
  }
  session.onOutcome = () => {
    if (view.isConnected) drawOutcome()
  }
  draw()
  return view
}
