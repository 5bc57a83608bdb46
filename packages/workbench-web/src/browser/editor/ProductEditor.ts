/**
 * The product editor: completion from the product document's Schema (`ProductDocument.ProductDocument`, whose JSON
 * Schema is `products/product.schema.json`) and, as you type, the folder checker's findings underlined at the JSON
 * paths they name. Loaded only with the product view, with the checker: the page's first load carries neither.
 */
import { type ProductCheck, ProductDocument } from "@kasko/core/actuarial"
import { productDiagnostics } from "../../model/ProductDiagnostics.js"
import { createJsonEditor, fullTree, type JsonEditor } from "./JsonEditor.js"

export { draftFile, findingsBySeverity, productDraftOf } from "../../model/ProductDraft.js"

export interface ProductEditorOptions {
  readonly text: string
  readonly label: string
  readonly describedBy: string
  /** The checker's findings with a text where it stands in its folder, and that file's path as they name it. */
  readonly check: (text: string) => {
    readonly file: string
    readonly findings: ReadonlyArray<ProductCheck.ProductFinding>
  }
  readonly onChange: (text: string) => void
}

/** Puts a product editor into `parent`. */
export const createProductEditor = (parent: HTMLElement, options: ProductEditorOptions): JsonEditor =>
  createJsonEditor(parent, {
    text: options.text,
    label: options.label,
    describedBy: options.describedBy,
    schema: () => ProductDocument.ProductDocument.ast,
    diagnose: (tree, doc) => {
      const { file, findings } = options.check(doc)
      return productDiagnostics(tree, doc, file, findings)
    },
    onChange: options.onChange,
    // the document's words (IPID lines, descriptions) run long
    wrapLines: true
  })

/** Moves the editor's cursor to where a finding on its document is, and gives it focus. */
export const showFinding = (editor: JsonEditor, file: string, finding: ProductCheck.ProductFinding): void => {
  const state = editor.view.state
  const [place] = productDiagnostics(fullTree(state), state.doc.toString(), file, [finding])
  if (place === undefined) return
  editor.view.dispatch({ selection: { anchor: place.from, head: place.to }, scrollIntoView: true })
  editor.view.focus()
}
