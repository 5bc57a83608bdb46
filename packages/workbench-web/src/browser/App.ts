/**
 * The page's context, handed to every view: the workspace, the shared state, the catalogue the views follow, and
 * the versions to price with.
 */
import type { ProductCatalogue, Tariff } from "@kasko/core/actuarial"
import { tariffsFor, type CaseInput } from "../model/CaseInput.js"
import { DRAFT_KEY, tariffVersionOf, type TariffVersion } from "../model/TariffVersion.js"
import { ImpactSession } from "./impact/ImpactSession.js"
import { Store } from "./Store.js"
import { initialState, type WorkbenchState } from "./WorkbenchState.js"
import { goldenRows, loadWorkspace, type Workspace } from "./Workspace.js"

export class App {
  readonly store: Store<WorkbenchState>

  /** The impact view's portfolio and test, kept while other views are shown. */
  readonly impact = new ImpactSession()

  /** Applies edits still waiting for a pause in the typing (set by an editor's view while it has some). */
  settleEdits: (() => void) | undefined

  // the tariff editor's draft as decoded against the catalogue it was last asked for with
  private draftDecoded:
    | { draft: TariffVersion; catalogue: ProductCatalogue.Catalogue; version: TariffVersion }
    | undefined

  constructor(public workspace: Workspace) {
    this.store = new Store(initialState(workspace))
  }

  get state(): WorkbenchState {
    return this.store.get()
  }

  /**
   * The products every view follows: the shipped ones and the products directory's, with the product editor's
   * draft in its product's place once it has no error. (The impact view reads it from here too.)
   */
  get catalogue(): ProductCatalogue.Catalogue {
    return this.state.productDraft?.catalogue ?? this.workspace.catalogue
  }

  /** The saved versions, decoded against the catalogue. */
  savedVersions(): ReadonlyArray<TariffVersion> {
    return this.workspace.versionsFor(this.catalogue)
  }

  /** The tariff editor's draft, decoded against the catalogue (its product may be the product editor's draft). */
  draft(): TariffVersion | undefined {
    const draft = this.state.draft
    if (draft === undefined) return undefined
    const catalogue = this.catalogue
    if (this.draftDecoded?.draft !== draft || this.draftDecoded.catalogue !== catalogue)
      this.draftDecoded = { draft, catalogue, version: tariffVersionOf(DRAFT_KEY, draft.source, false, catalogue) }
    return this.draftDecoded.version
  }

  /** The saved versions and, once the editor's text was changed, the draft. */
  versions(): ReadonlyArray<TariffVersion> {
    const draft = this.draft()
    return draft === undefined ? this.savedVersions() : [...this.savedVersions(), draft]
  }

  /** A version by its key (a file, or the draft's). */
  version(key: string): TariffVersion | undefined {
    return this.versions().find((version) => version.key === key)
  }

  /** The tariffs a case is priced with: its chosen version, or the saved versions (the one in force on its date prices). */
  tariffsFor(input: CaseInput = this.state.case): ReadonlyArray<Tariff.Tariff> {
    return tariffsFor(input, this.savedVersions(), this.draft())
  }

  /** The golden tables, their parameter columns the catalogue's. */
  goldenTables() {
    return this.workspace.goldenTables(this.catalogue)
  }

  /** Every golden row, in table order. */
  goldenRows() {
    return goldenRows(this.workspace, this.catalogue)
  }

  /** Reads the workspace again (after a save), keeping the page's state. */
  async reload(): Promise<void> {
    this.workspace = await loadWorkspace()
  }
}
