/** The page's context, handed to every view: the workspace, the shared state, and the versions to price with. */
import type { Tariff } from "@kasko/core/actuarial"
import { tariffsFor, type CaseInput } from "../model/CaseInput.js"
import type { TariffVersion } from "../model/TariffVersion.js"
import { ImpactSession } from "./impact/ImpactSession.js"
import { Store } from "./Store.js"
import { initialState, type WorkbenchState } from "./WorkbenchState.js"
import { loadWorkspace, type Workspace } from "./Workspace.js"

export class App {
  readonly store: Store<WorkbenchState>

  /** The impact view's portfolio and test, kept while other views are shown. */
  readonly impact = new ImpactSession()

  /** Applies edits still waiting for a pause in the typing (set by the edit view while it has some). */
  settleEdits: (() => void) | undefined

  constructor(public workspace: Workspace) {
    this.store = new Store(initialState(workspace))
  }

  get state(): WorkbenchState {
    return this.store.get()
  }

  /** The saved versions and, once the editor's text was changed, the draft. */
  versions(): ReadonlyArray<TariffVersion> {
    const draft = this.state.draft
    return draft === undefined ? this.workspace.versions : [...this.workspace.versions, draft]
  }

  /** A version by its key (a file, or the draft's). */
  version(key: string): TariffVersion | undefined {
    return this.versions().find((version) => version.key === key)
  }

  /** The tariffs a case is priced with: its chosen version, or the saved versions (the one in force on its date prices). */
  tariffsFor(input: CaseInput = this.state.case): ReadonlyArray<Tariff.Tariff> {
    return tariffsFor(input, this.workspace.versions, this.state.draft)
  }

  /** Reads the workspace again (after a save), keeping the page's state. */
  async reload(): Promise<void> {
    this.workspace = await loadWorkspace()
  }
}
