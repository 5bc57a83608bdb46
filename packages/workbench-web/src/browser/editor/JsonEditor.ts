/**
 * A JSON document's editor, as the tariff and product editors have it: CodeMirror 6 with JSON, completion from the
 * Schema the engine decodes the document with and, as you type, the syntax's problems and then the document's own,
 * underlined where they are. Loaded only with an editor's view, so the first load of the page does not carry it.
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
import type { Tree } from "@lezer/common"
import type { SchemaAST } from "effect"
import { completionAt } from "../../model/SchemaCompletion.js"

export interface JsonEditor {
  readonly view: EditorView
  /** Replaces the whole text (opening another version). */
  readonly setText: (text: string) => void
}

/** What an editor knows of its documents. */
export interface JsonEditorOptions {
  /** The text it opens with. */
  readonly text: string
  /** The editor's accessible name, and the ids of the elements that describe it. */
  readonly label: string
  readonly describedBy: string
  /** The Schema completion offers members and values from (asked again at each completion). */
  readonly schema: () => SchemaAST.AST
  /** The problems of a text that is JSON, each placed in it (asked again at each check). */
  readonly diagnose: (tree: Tree, doc: string) => ReadonlyArray<Diagnostic>
  /** Hears every new text, not the texts `setText` puts in. */
  readonly onChange: (text: string) => void
  /** Wraps long lines (a document of prose, whose lines would run past the editor) rather than scroll sideways. */
  readonly wrapLines?: boolean
}

/** The whole document's syntax tree (parsed to the end, within half a second). */
export const fullTree = (state: EditorState) => ensureSyntaxTree(state, state.doc.length, 500) ?? syntaxTree(state)

// where a value or a property name begins: the list opens by itself there; elsewhere on Ctrl-Space
const OPENS_COMPLETION = /[{,:[]\s*$/

const schemaCompletion =
  (schema: () => SchemaAST.AST) =>
  (context: CompletionContext): CompletionResult | null => {
    const doc = context.state.doc.toString()
    const found = completionAt(schema(), fullTree(context.state), doc, context.pos)
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

const documentLinter = (diagnose: JsonEditorOptions["diagnose"]) =>
  linter(
    (view): ReadonlyArray<Diagnostic> => {
      const syntax = jsonParseLinter()(view)
      if (syntax.length > 0) return syntax
      return diagnose(fullTree(view.state), view.state.doc.toString())
    },
    { delay: 250 }
  )

/** The nonce the server's Content-Security-Policy allows style elements with (CodeMirror injects its styles). */
const styleNonce = () => document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? ""

/** Puts an editor into `parent`. */
export const createJsonEditor = (parent: HTMLElement, options: JsonEditorOptions): JsonEditor => {
  const { text, label, describedBy, onChange } = options
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
        autocompletion({ override: [schemaCompletion(options.schema)] }),
        documentLinter(options.diagnose),
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
        options.wrapLines === true ? EditorView.lineWrapping : [],
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
