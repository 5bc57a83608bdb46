/**
 * The tariff editor: CodeMirror 6 with JSON, completion from the tariff's
 * Schema (its products the page's catalogue's) and, as you type, the Schema's problems, the compiler's and the
 * linter's findings underlined where they are. Loaded only when the edit
 * view opens, so the first load of the page does not carry it.
 */
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type CompletionContext,
  type CompletionResult
} from "@codemirror/autocomplete"
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands"
import { json, jsonParseLinter } from "@codemirror/lang-json"
import {
  bracketMatching,
  defaultHighlightStyle,
  ensureSyntaxTree,
  foldGutter,
  foldKeymap,
  indentOnInput,
  syntaxHighlighting,
  syntaxTree
} from "@codemirror/language"
import { linter, lintGutter, lintKeymap, type Diagnostic } from "@codemirror/lint"
import { EditorState } from "@codemirror/state"
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers
} from "@codemirror/view"
import { type ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { completionAt } from "../../model/SchemaCompletion.js"
import { tariffDiagnostics } from "../../model/TariffDiagnostics.js"

export interface TariffEditor {
  readonly view: EditorView
  /** Replaces the whole text (opening another version). */
  readonly setText: (text: string) => void
}

const fullTree = (state: EditorState) => ensureSyntaxTree(state, state.doc.length, 500) ?? syntaxTree(state)

// where a value or a property name begins: the list opens by itself there; elsewhere on Ctrl-Space
const OPENS_COMPLETION = /[{,:[]\s*$/

const schemaCompletion =
  (catalogue: () => ProductCatalogue.Catalogue) =>
  (context: CompletionContext): CompletionResult | null => {
    const doc = context.state.doc.toString()
    const found = completionAt(Tariff.tariffSchemaOf(catalogue()).ast, fullTree(context.state), doc, context.pos)
    if (found === undefined || found.options.length === 0) return null
    if (
      !context.explicit &&
      found.from === found.to &&
      !OPENS_COMPLETION.test(doc.slice(Math.max(0, context.pos - 40), context.pos))
    )
      return null
    return {
      from: found.from,
      to: found.to,
      options: found.options.map((option) => ({
        label: option.label,
        apply: option.apply,
        detail: option.detail,
        type: option.type
      }))
    }
  }

const tariffLinter = (catalogue: () => ProductCatalogue.Catalogue) =>
  linter(
    (view): Array<Diagnostic> => {
      const syntax = jsonParseLinter()(view)
      if (syntax.length > 0) return syntax
      return tariffDiagnostics(fullTree(view.state), view.state.doc.toString(), catalogue())
    },
    { delay: 250 }
  )

/** The nonce the server's Content-Security-Policy allows style elements with (CodeMirror injects its styles). */
const styleNonce = () => document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? ""

/** Puts an editor into `parent`; `onChange` hears every new text; `catalogue` answers the products it checks against. */
export const createTariffEditor = (
  parent: HTMLElement,
  text: string,
  label: string,
  describedBy: string,
  onChange: (text: string) => void,
  catalogue: () => ProductCatalogue.Catalogue
): TariffEditor => {
  // opening a version replaces the text without it counting as an edit
  let opening = false
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        json(),
        autocompletion({ override: [schemaCompletion(catalogue)] }),
        tariffLinter(catalogue),
        lintGutter(),
        // Tab is left to the browser: keyboard users move on out of the editor with it
        keymap.of([
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...historyKeymap,
          ...foldKeymap,
          ...completionKeymap,
          ...lintKeymap
        ]),
        EditorView.cspNonce.of(styleNonce()),
        // an explicit tabindex, as a contenteditable already has: tools (axe-core) then see the scroller's content as focusable
        EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": describedBy, tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !opening) onChange(update.state.doc.toString())
        })
      ]
    })
  })
  return {
    view,
    setText: (next) => {
      opening = true
      try {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } })
      } finally {
        opening = false
      }
    }
  }
}
