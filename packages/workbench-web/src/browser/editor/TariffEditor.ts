/**
 * The tariff editor: completion from the tariff's Schema (its products the page's catalogue's) and, as you type,
 * the Schema's problems, the compiler's and the linter's findings underlined where they are.
 */
import { type ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { tariffDiagnostics } from "../../model/TariffDiagnostics.js"
import { createJsonEditor, type JsonEditor } from "./JsonEditor.js"

export type TariffEditor = JsonEditor

/** Puts a tariff editor into `parent`, checking against the catalogue `catalogue` answers at each check. */
export const createTariffEditor = (
  parent: HTMLElement,
  text: string,
  label: string,
  describedBy: string,
  onChange: (text: string) => void,
  catalogue: () => ProductCatalogue.Catalogue
): TariffEditor =>
  createJsonEditor(parent, {
    text,
    label,
    describedBy,
    schema: () => Tariff.tariffSchemaOf(catalogue()).ast,
    diagnose: (tree, doc) => tariffDiagnostics(tree, doc, catalogue()),
    onChange
  })
