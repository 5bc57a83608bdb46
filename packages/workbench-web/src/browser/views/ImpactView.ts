/**
 * Impact: what a new tariff version does to a whole book. Two versions of a
 * product and a portfolio file (chosen, or dropped on the form); the book is
 * re-rated in the page's web workers by the production engine — the worker
 * job and pool `kasko tariff impact` runs on its threads — and reported as the
 * command reports it: totals before and after, capped beside uncapped, the
 * target's factor, a histogram of the change per policy by band, the segments,
 * the largest movers with the worksheet lines that moved them, and the cases
 * rejected, counted by reason. Every table exports as CSV, the chart as SVG
 * and PNG, the whole result as the command's CSV and JSON.
 */
import { ProductCatalogue, type Tariff } from "@kasko/core/actuarial"
import {
  impactCsv,
  SEGMENT_TITLES,
  TOTALS_CSV_COLUMNS,
  totalsCsvCells,
  impactText,
  type ImpactResult,
  type Mover,
  SEGMENT_DIMENSIONS,
  type TotalsRow,
  unreachableFactorText
} from "@kasko/workbench/browser"
import { stringify } from "csv-stringify/sync"
import { Result } from "effect"
import {
  type ImpactChoices,
  type ImpactFieldProblem,
  impactCommandLine,
  impactSettingsOf,
  shellLine,
  WHOLE_PREMIUM
} from "../../model/ImpactSettings.js"
import { DRAFT_KEY, versionsOf } from "../../model/TariffVersion.js"
import type { App } from "../App.js"
import { bandHistogram } from "../components/BandHistogram.js"
import { dataTable } from "../components/DataTable.js"
import { downloadCsv, downloadText } from "../components/Downloads.js"
import { selectField, versionField } from "../components/Fields.js"
import { h, redrawKeepingFocus, replaceChildren, uniqueId } from "../Dom.js"
import type { ImpactOutcome } from "../impact/ImpactSession.js"

/** 1234567.8 → "1 234 567.80", a minus sign for less than zero: as `kasko tariff impact` prints kroner. */
const money = (kroner: number): string => {
  const [whole, fraction] = Math.abs(kroner).toFixed(2).split(".") as [string, string]
  return `${kroner < 0 ? "−" : ""}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ")}.${fraction}`
}
const signedMoney = (kroner: number) => (kroner > 0 ? `+${money(kroner)}` : money(kroner))
const count = (value: number): string => String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ")
const percent = (value: number | null | undefined, decimals = 2): string =>
  value === null || value === undefined
    ? "—"
    : `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value).toFixed(decimals)} %`
const plural = (value: number, word: string) => `${count(value)} ${word}${value === 1 ? "" : "s"}`
const policies = (value: number) => `${count(value)} ${value === 1 ? "policy" : "policies"}`
const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

/** The columns every row of totals shows; the capped ones only when a cap is set. */
const totalsColumns = (capped: boolean) => [
  { title: "policies", numeric: true },
  { title: "affected", numeric: true },
  { title: "exposure", numeric: true },
  { title: "before kr", numeric: true },
  { title: "after kr", numeric: true },
  { title: "change kr", numeric: true },
  { title: "change", numeric: true },
  ...(capped
    ? [
        { title: "capped kr", numeric: true },
        { title: "capped change", numeric: true }
      ]
    : [])
]

const totalsCells = (row: TotalsRow, capped: boolean): Array<string> => [
  count(row.policies),
  count(row.affected),
  row.exposure.toFixed(2),
  money(row.old_kroner),
  money(row.new_kroner),
  signedMoney(row.change_kroner),
  percent(row.change_percent),
  ...(capped ? [money(row.capped_kroner ?? 0), percent(row.capped_change_percent)] : [])
]

/** The coverages a tariff adds: what a target's factor can be on, besides the whole premium. */
const coveragesOf = (tariff: Tariff.Tariff | undefined): Array<string> => [
  ...new Set(
    (tariff?.rules ?? []).flatMap((rule) => (rule.event.type === "add_coverage" ? [rule.event.params.coverage] : []))
  )
]

const moverLines = (mover: Mover) =>
  h(
    "ul",
    { class: "moved-lines" },
    mover.moved_lines.map((line) =>
      h(
        "li",
        {},
        h("span", { class: "moved-item" }, line.item),
        ` ${line.old_kroner === null ? "—" : money(line.old_kroner)} → ${line.new_kroner === null ? "—" : money(line.new_kroner)}`,
        line.old_explanation === line.new_explanation
          ? null
          : h(
              "span",
              { class: "hint" },
              ` (${line.old_explanation ?? "not there"} → ${line.new_explanation ?? "not there"})`
            )
      )
    )
  )

const moversTable = (title: string, movers: ReadonlyArray<Mover>, csvName: string) =>
  dataTable({
    caption: title,
    columns: [
      { title: "policy" },
      { title: "line", numeric: true },
      { title: "product" },
      { title: "feature" },
      { title: "before kr", numeric: true },
      { title: "after kr", numeric: true },
      { title: "change kr", numeric: true },
      { title: "change", numeric: true },
      { title: "worksheet lines moved" }
    ],
    rows: movers.map((mover) => [
      mover.policy_id,
      String(mover.line),
      mover.product_name,
      mover.feature,
      money(mover.old_kroner),
      money(mover.new_kroner),
      signedMoney(mover.change_kroner),
      percent(mover.change_percent),
      moverLines(mover)
    ]),
    rowClass: (index) => (movers[index]!.change_kroner > 0 ? "dearer" : "cheaper"),
    csvName,
    csv: () =>
      stringify(
        movers.map((mover) => [
          mover.policy_id,
          mover.line,
          mover.product_name,
          mover.feature,
          mover.old_kroner.toFixed(2),
          mover.new_kroner.toFixed(2),
          mover.change_kroner.toFixed(2),
          mover.change_percent ?? "",
          mover.moved_lines
            .map((line) => `${line.item} ${line.old_kroner ?? "—"} → ${line.new_kroner ?? "—"}`)
            .join("; "),
          JSON.stringify(mover.parameters)
        ]),
        {
          header: true,
          columns: [
            "policy_id",
            "line",
            "product_name",
            "feature",
            "old_kroner",
            "new_kroner",
            "change_kroner",
            "change_percent",
            "moved_lines",
            "parameters"
          ]
        }
      )
  })

/** The figures of a finished test: totals, capping, the target, the rejected and uncompared cases. */
const figures = (result: ImpactResult) => {
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

const resultView = (outcome: Extract<ImpactOutcome, { kind: "done" }>): Array<HTMLElement> => {
  const { result } = outcome
  const { report } = result
  const capped = report.caps !== null
  const versions = result.compared.map((entry) => `${entry.product_name} ${entry.old_version} → ${entry.new_version}`)
  const summary = h(
    "p",
    { class: "summary", "data-summary": "impact" },
    `${versions.join(", ") || "No product both versions price"}, priced on ${result.pricing_date}: ${outcome.file}, ${policies(report.totals.policies)} priced`,
    h(
      "span",
      { class: "impact-timing" },
      ` on ${plural(outcome.workers, "web worker")} in ${(outcome.milliseconds / 1000).toFixed(1)} s`
    )
  )
  const versionTitle = result.compared.map((entry) => `${entry.old_version} → ${entry.new_version}`).join(", ")
  const segmentRows = SEGMENT_DIMENSIONS.flatMap((dimension) =>
    report.segments[dimension].map((row) => ({ dimension, row }))
  )
  return [
    h(
      "section",
      { "aria-labelledby": "impact-result-title" },
      h("h3", { id: "impact-result-title" }, "Result"),
      summary,
      figures(result),
      report.rejected.reasons.length === 0
        ? null
        : dataTable({
            caption: "Rejected cases by reason",
            columns: [{ title: "reason" }, { title: "cases", numeric: true }, { title: "first lines" }],
            rows: report.rejected.reasons.map((reason) => [
              reason.reason,
              count(reason.cases),
              `${reason.lines.join(", ")}${reason.cases > reason.lines.length ? ", …" : ""}`
            ]),
            rowClass: () => "failed",
            csvName: "impact-rejected.csv"
          }),
      h(
        "p",
        { class: "exports" },
        h(
          "button",
          { type: "button", onclick: () => downloadCsv("impact.csv", impactCsv(result)) },
          "Export the result as CSV"
        ),
        " ",
        h(
          "button",
          {
            type: "button",
            onclick: () =>
              downloadText("impact.json", `${JSON.stringify(result, null, 2)}\n`, "application/json;charset=utf-8")
          },
          "Export the result as JSON"
        ),
        h("span", { class: "hint" }, " as kasko tariff impact writes it with --csv and --json")
      )
    ),
    h(
      "section",
      { "aria-labelledby": "impact-bands-title" },
      h("h3", { id: "impact-bands-title" }, "Change per policy"),
      bandHistogram({
        title: `Policies by change of their annual premium, ${versionTitle || "no product compared"}`,
        bands: report.bands,
        fileName: "impact-bands"
      }),
      dataTable({
        caption: "Policies and premium by band of change",
        columns: [{ title: "band" }, ...totalsColumns(capped)],
        rows: report.bands.map((band) => [band.band, ...totalsCells(band, capped)]),
        csvName: "impact-bands.csv",
        csv: () =>
          stringify(
            report.bands.map((band) => [
              band.band,
              band.from_percent ?? "",
              band.to_percent ?? "",
              ...totalsCsvCells(band)
            ]),
            { header: true, columns: ["band", "from_percent", "to_percent", ...TOTALS_CSV_COLUMNS] }
          )
      })
    ),
    h(
      "section",
      { "aria-labelledby": "impact-segments-title" },
      h("h3", { id: "impact-segments-title" }, "By segment"),
      dataTable({
        caption: "Policies and premium by segment",
        columns: [{ title: "dimension" }, { title: "segment" }, ...totalsColumns(capped)],
        rows: segmentRows.map(({ dimension, row }) => [
          SEGMENT_TITLES[dimension],
          row.segment,
          ...totalsCells(row, capped)
        ]),
        rowClass: (index) =>
          index > 0 && segmentRows[index - 1]!.dimension !== segmentRows[index]!.dimension
            ? "dimension-start"
            : undefined,
        csvName: "impact-segments.csv",
        csv: () =>
          stringify(
            segmentRows.map(({ dimension, row }) => [dimension, row.segment, ...totalsCsvCells(row)]),
            { header: true, columns: ["dimension", "segment", ...TOTALS_CSV_COLUMNS] }
          )
      })
    ),
    h(
      "section",
      { "aria-labelledby": "impact-movers-title" },
      h("h3", { id: "impact-movers-title" }, "Largest movers"),
      report.movers.increases.length === 0 && report.movers.decreases.length === 0
        ? h("p", {}, "No policy moves.")
        : null,
      report.movers.increases.length === 0
        ? null
        : moversTable("Largest increases", report.movers.increases, "impact-increases.csv"),
      report.movers.decreases.length === 0
        ? null
        : moversTable("Largest decreases", report.movers.decreases, "impact-decreases.csv")
    ),
    h(
      "details",
      { class: "as-text" },
      h("summary", {}, "As kasko tariff impact prints it"),
      h("pre", { class: "impact-report" }, impactText(result))
    ),
    h(
      "details",
      { class: "as-command" },
      h("summary", {}, "The same test on the command line"),
      h("pre", {}, h("code", { class: "impact-command" }, outcome.command))
    )
  ]
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

  /** The file a version is read from on the command line. */
  const versionFile = (key: string): string => {
    if (key === DRAFT_KEY) return "draft.json"
    const version = app.version(key)
    if (version?.proposal === true) return key.replace(/ \(proposal\)$/, "")
    return `${app.workspace.directory.replace(/\/$/, "")}/${key}`
  }

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
      settings: settings.success,
      choices: chosen,
      command: shellLine(
        impactCommandLine(versionFile(current.old), versionFile(current.new), file.name, settings.success)
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
    replaceChildren(results, outcome?.kind === "done" ? resultView(outcome) : null)
    markStale()
  }

  // kept across redraws, so that the input still holds the file chosen
  const portfolioId = uniqueId("portfolio")
  const portfolioMessage = h("span", { class: "message", id: `${portfolioId}-message` })
  const fileInput = h("input", {
    id: portfolioId,
    name: "portfolio",
    type: "file",
    accept: ".csv,text/csv",
    "aria-describedby": `${portfolioId}-hint ${portfolioId}-message`,
    onchange: (event) => choosePortfolio((event.target as HTMLInputElement).files?.[0])
  })

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
      messages.set("portfolio", portfolioMessage)
      controls.set("portfolio", fileInput)
      const chosen = session.portfolio
      const dropZone = h(
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
            fileInput.files = dropped
            choosePortfolio(dropped[0])
          }
        },
        h("legend", {}, "Portfolio"),
        h(
          "div",
          { class: "field" },
          h("label", { for: portfolioId }, "Portfolio file (CSV)"),
          fileInput,
          h(
            "span",
            { class: "hint", id: `${portfolioId}-hint` },
            chosen === undefined
              ? "or drop it here. One policy a line; a header naming the product parameters and optionally policy_id, product_name, feature, weight and current_premium (kasko portfolio generate makes one)"
              : `${chosen.name}, ${megabytes(chosen.size)}: read here, in slices, never sent anywhere`
          ),
          portfolioMessage
        )
      )
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
              ProductCatalogue.PRODUCT_NAMES.map((name) => [name, name] as const),
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
          dropZone,
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
