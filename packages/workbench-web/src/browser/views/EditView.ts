/**
 * Edit: a version's JSON in an editor with completion and validation from
 * the tariff's Schema; the linter and the golden tables follow the edit;
 * saving writes a new version file (the server never overwrites a version
 * that has taken effect).
 */
import { Schema } from "effect"
import { DRAFT_KEY, tariffVersionOf, versionLabel } from "../../model/TariffVersion.js"
import { SaveAnswer } from "../../model/WorkspaceDocument.js"
import type { App } from "../App.js"
import { versionField } from "../components/Fields.js"
import { showVersionCheck } from "../components/VersionCheck.js"
import { h, replaceChildren } from "../Dom.js"
import type { TariffEditor } from "../editor/TariffEditor.js"

const CHECK_DELAY_MS = 200

export const renderEditView = (app: App): HTMLElement => {
  const view = h("section", { class: "view edit-view", "aria-labelledby": "edit-title" })
  const editorSlot = h("div", { class: "editor-slot" }, h("p", {}, "Loading the editor…"))
  const draftStatus = h("p", { class: "draft-status", id: "draft-status", "aria-live": "polite" })
  const saveMessage = h("p", { class: "save-message" })
  const check = h("div", { class: "check-results", "aria-live": "polite" })
  const openSlot = h("div", { class: "open-slot" })
  let editor: TariffEditor | undefined
  let pendingCheck: ReturnType<typeof setTimeout> | undefined

  const text = () => app.state.draft?.source ?? app.version(app.state.opened)?.source ?? ""

  const describe = () => {
    const draft = app.draft()
    const current = draft ?? app.version(app.state.opened)
    if (current === undefined) {
      draftStatus.textContent = "No version opened."
      return
    }
    const state = draft === undefined ? `Opened ${app.state.opened}, unchanged.` : "Edited, not saved."
    const status =
      current.tariff === undefined
        ? `${state} It does not load: ${current.problem ?? ""}`
        : `${state} It loads as ${versionLabel(current)}.`
    // announced only when it changes, not on every keystroke
    if (draftStatus.textContent !== status) draftStatus.textContent = status
    draftStatus.className = current.tariff === undefined ? "draft-status failed" : "draft-status"
  }

  const checkNow = () => void showVersionCheck(check, app.draft() ?? app.version(app.state.opened), app)

  // decoding and checking the whole tariff waits for a pause in the typing; leaving the view does it at once
  const settle = (source: string) => {
    clearTimeout(pendingCheck)
    app.settleEdits = undefined
    app.store.update((state) => ({ ...state, draft: tariffVersionOf(DRAFT_KEY, source, false, app.catalogue) }))
    describe()
    checkNow()
  }
  const onEdit = (source: string) => {
    clearTimeout(pendingCheck)
    pendingCheck = setTimeout(() => settle(source), CHECK_DELAY_MS)
    app.settleEdits = () => settle(source)
  }

  const drawOpen = () =>
    replaceChildren(
      openSlot,
      versionField("Open version", "open-version", app.state.opened, app.savedVersions(), (key) => {
        app.store.update((state) => ({ ...state, opened: key, draft: undefined }))
        editor?.setText(text())
        saveMessage.textContent = ""
        describe()
        checkNow()
      })
    )

  const save = async () => {
    app.settleEdits?.()
    const source = editor?.view.state.doc.toString() ?? text()
    saveMessage.className = "save-message"
    saveMessage.setAttribute("role", "status")
    saveMessage.textContent = "Saving…"
    const response = await fetch("/api/tariffs", {
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
    app.store.update((state) => ({ ...state, opened: outcome.saved, draft: undefined }))
    saveMessage.textContent = `Saved as ${outcome.saved} in ${app.workspace.directory}.`
    drawOpen()
    describe()
  }

  replaceChildren(
    view,
    h("h2", { id: "edit-title" }, "Edit a tariff"),
    h(
      "div",
      { class: "columns" },
      h(
        "div",
        { class: "column-editor" },
        h(
          "form",
          { class: "inline-controls", "aria-label": "Version to open", onsubmit: (event) => event.preventDefault() },
          openSlot
        ),
        h(
          "p",
          { class: "hint", id: "editor-hint" },
          "Ctrl-Space completes from the tariff's Schema; problems are underlined as you type (Ctrl-Shift-M lists them); Tab leaves the editor."
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
      h("div", { class: "column-result" }, h("h3", {}, "Following the edit"), check)
    )
  )
  drawOpen()
  describe()
  checkNow()
  void import("../editor/TariffEditor.js").then(({ createTariffEditor }) => {
    editorSlot.replaceChildren()
    editor = createTariffEditor(
      editorSlot,
      text(),
      "Tariff JSON",
      "editor-hint draft-status",
      onEdit,
      () => app.catalogue
    )
  })
  return view
}
