/**
 * Edit product: a product document of the products directory (`kasko workbench --products DIR`) in an editor with
 * completion from the document's Schema and, as you type, the folder checker's findings — those `kasko products
 * check` and `kasko serve` judge the folder by — underlined at the JSON paths they name and listed beside it, errors
 * and warnings apart. Once the text has no error, every other view prices the draft product with its tariffs.
 * Saving writes a new version, `<product>/versions/<version>.json` (the server never writes over a version).
 * Without a products directory there is nothing of an insurer's to edit: the view says how to start with one.
 */
import type { ProductCheck } from "@kasko/core/actuarial"
import { Result, Schema } from "effect"
import type { ProductDraft } from "../../model/ProductDraft.js"
import { decodeProductText, productVersionFiles, type ProductVersionFile } from "../../model/ProductFolders.js"
import { SaveAnswer } from "../../model/WorkspaceDocument.js"
import type { App } from "../App.js"
import { selectField } from "../components/Fields.js"
import { h, replaceChildren, uniqueId } from "../Dom.js"
import type { JsonEditor } from "../editor/JsonEditor.js"

type ProductEditorModule = typeof import("../editor/ProductEditor.js")

const CHECK_DELAY_MS = 200

const counted = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`

/** A version in the list to open: `insurance-van-business v1 (from 2026-01-01) · product.json`. */
const versionLabel = (version: ProductVersionFile): string => {
  const decoded = decodeProductText(version.source)
  if (Result.isFailure(decoded)) return `${version.key} (does not decode)`
  const { product_name, version: name, effective_from } = decoded.success
  return `${product_name} ${name} (from ${effective_from}) · ${version.file}`
}

const findingText = (finding: ProductCheck.ProductFinding) =>
  `${finding.file}: ${finding.path === "" ? "" : `${finding.path}: `}${finding.message}`

const withoutProducts = (view: HTMLElement): HTMLElement => {
  replaceChildren(
    view,
    h("h2", { id: "product-title" }, "Edit a product"),
    h(
      "p",
      { class: "hint", "data-summary": "no-products" },
      "Product documents are edited in a products directory: start the workbench with --products DIR (or KASKO_PRODUCTS_DIR), as kasko serve is started, and its products' documents open here. The shipped products are the core's, not an insurer's files: they are not edited or saved from here."
    )
  )
  return view
}

export const renderProductView = (app: App): HTMLElement => {
  const view = h("section", { class: "view edit-view product-view", "aria-labelledby": "product-title" })
  if (app.workspace.products === undefined) return withoutProducts(view)
  const editorSlot = h("div", { class: "editor-slot" }, h("p", {}, "Loading the editor…"))
  const draftStatus = h("p", { class: "draft-status", id: "product-draft-status", "aria-live": "polite" })
  const saveMessage = h("p", { class: "save-message" })
  const findingsSlot = h("div", { class: "check-results", "aria-live": "polite" })
  const openSlot = h("div", { class: "open-slot" })
  let module: ProductEditorModule | undefined
  let editor: JsonEditor | undefined
  let pendingCheck: ReturnType<typeof setTimeout> | undefined

  const versions = () => productVersionFiles(app.workspace.products?.folders ?? [])
  const opened = () => versions().find((version) => version.key === app.state.productOpened)
  const folder = () => app.state.productDraft?.folder ?? opened()?.folder ?? ""
  const openedFile = () => app.state.productDraft?.opened ?? opened()?.file ?? ""
  const text = () => app.state.productDraft?.source ?? opened()?.source ?? ""

  // the check of one text, kept for the next ask (the editor's underlines and the list ask for the same text)
  let lastCheck: ProductDraft | undefined
  const checked = (source: string): ProductDraft | undefined => {
    if (module === undefined) return undefined
    if (lastCheck?.source !== source || lastCheck.folder !== folder() || lastCheck.opened !== openedFile())
      lastCheck = module.productDraftOf(
        app.workspace.products?.folders ?? [],
        folder(),
        openedFile(),
        source,
        app.workspace.catalogue
      )
    return lastCheck
  }

  const describe = () => {
    const draft = app.state.productDraft
    const state = draft === undefined ? `Opened ${app.state.productOpened}, unchanged.` : "Edited, not saved."
    const status =
      draft === undefined
        ? state
        : draft.document === undefined
          ? `${state} The other views price the saved product until the text has no error: ${draft.problem ?? ""}.`
          : `${state} It decodes as ${draft.document.product_name} ${draft.document.version}, in force from ${draft.document.effective_from}: every view prices it on its dates (the draft).`
    // announced only when it changes, not on every keystroke
    if (draftStatus.textContent !== status) draftStatus.textContent = status
    draftStatus.className = draft !== undefined && draft.document === undefined ? "draft-status failed" : "draft-status"
  }

  const findingsList = (
    title: string,
    severity: "error" | "warning",
    findings: ReadonlyArray<ProductCheck.ProductFinding>,
    own: string
  ) => {
    const titleId = uniqueId(`${severity}s-title`)
    return h(
      "section",
      { "aria-labelledby": titleId },
      h("h4", { id: titleId }, `${title} (${findings.length})`),
      findings.length === 0
        ? h("p", { class: "hint" }, "none")
        : h(
            "ul",
            { class: `findings ${severity}s` },
            findings.map((finding) =>
              h(
                "li",
                { class: `finding ${severity}`, "data-file": finding.file, "data-path": finding.path },
                h("span", { class: "finding-message" }, findingText(finding)),
                finding.file !== own
                  ? null
                  : h(
                      "button",
                      {
                        type: "button",
                        class: "show-finding",
                        onclick: () => {
                          if (editor !== undefined) module?.showFinding(editor, own, finding)
                        }
                      },
                      "Show"
                    )
              )
            )
          )
    )
  }

  const showFindings = () => {
    const draft = checked(text())
    if (draft === undefined || module === undefined) return
    const { errors, warnings } = module.findingsBySeverity(draft)
    const summary = `${draft.folder}: ${counted(errors.length, "error")}, ${counted(warnings.length, "warning")}`
    const own = module.draftFile(draft)
    replaceChildren(
      findingsSlot,
      h(
        "p",
        { class: errors.length > 0 ? "summary failed" : "summary passed", "data-summary": "product-check" },
        errors.length > 0 ? `✗ ${summary}` : `✓ ${summary}`
      ),
      h(
        "p",
        { class: "hint" },
        `The folder as kasko products check would read it with this text as ${own} (the version it declares, or the file saving it writes): errors keep kasko serve from loading the directory; warnings load.`
      ),
      findingsList("Errors", "error", errors, own),
      findingsList("Warnings", "warning", warnings, own)
    )
  }

  // checking the folder with the text waits for a pause in the typing; leaving the view does it at once
  const settle = (source: string) => {
    clearTimeout(pendingCheck)
    app.settleEdits = undefined
    const draft = checked(source)
    if (draft !== undefined) app.store.update((state) => ({ ...state, productDraft: draft }))
    describe()
    showFindings()
  }
  const onEdit = (source: string) => {
    clearTimeout(pendingCheck)
    pendingCheck = setTimeout(() => settle(source), CHECK_DELAY_MS)
    app.settleEdits = () => settle(source)
  }

  const drawOpen = () =>
    replaceChildren(
      openSlot,
      selectField(
        "Open version",
        "open-product",
        app.state.productOpened,
        versions().map((version) => [version.key, versionLabel(version)] as const),
        (key) => {
          clearTimeout(pendingCheck)
          app.settleEdits = undefined
          app.store.update((state) => ({ ...state, productOpened: key, productDraft: undefined }))
          editor?.setText(text())
          saveMessage.textContent = ""
          describe()
          showFindings()
        }
      )
    )

  const save = async () => {
    app.settleEdits?.()
    const source = editor?.view.state.doc.toString() ?? text()
    saveMessage.className = "save-message"
    saveMessage.setAttribute("role", "status")
    saveMessage.textContent = "Saving…"
    const response = await fetch("/api/products", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: source
    })
    const outcome = Schema.decodeUnknownSync(SaveAnswer)(await response.json())
    if ("refused" in outcome) {
      saveMessage.className = "save-message failed"
      saveMessage.setAttribute("role", "alert")
      saveMessage.textContent = `Not saved: ${outcome.refused}`
      return
    }
    await app.reload()
    app.store.update((state) => ({ ...state, productOpened: outcome.saved, productDraft: undefined }))
    saveMessage.textContent = `Saved as ${outcome.saved} in ${app.workspace.products?.directory ?? ""}.`
    drawOpen()
    describe()
    showFindings()
  }

  replaceChildren(
    view,
    h("h2", { id: "product-title" }, "Edit a product"),
    h(
      "div",
      { class: "columns" },
      h(
        "div",
        { class: "column-editor" },
        h(
          "form",
          {
            class: "inline-controls",
            "aria-label": "Product version to open",
            onsubmit: (event) => event.preventDefault()
          },
          openSlot
        ),
        h(
          "p",
          { class: "hint", id: "product-editor-hint" },
          "Ctrl-Space completes from the product document's Schema; the folder checker's findings are underlined as you type (Ctrl-Shift-M lists them); Tab leaves the editor."
        ),
        editorSlot,
        draftStatus,
        h(
          "div",
          { class: "save" },
          h("button", { type: "button", class: "primary", onclick: () => void save() }, "Save as a new version"),
          saveMessage
        )
      ),
      h("div", { class: "column-result" }, h("h3", {}, "The folder checker, following the edit"), findingsSlot)
    )
  )
  drawOpen()
  describe()
  void import("../editor/ProductEditor.js").then((loaded) => {
    module = loaded
    editorSlot.replaceChildren()
    editor = loaded.createProductEditor(editorSlot, {
      text: text(),
      label: "Product document JSON",
      describedBy: "product-editor-hint product-draft-status",
      check: (source) => {
        const draft = checked(source)
        return draft === undefined
          ? { file: "", findings: [] }
          : { file: loaded.draftFile(draft), findings: draft.findings }
      },
      onChange: onEdit
    })
    showFindings()
  })
  return view
}
