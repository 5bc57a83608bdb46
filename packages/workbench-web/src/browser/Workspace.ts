/**
 * The workspace as the page holds it: the server's tariff files decoded and
 * compiled by the core, the golden tables parsed by the workbench, read
 * once on load and again after a save.
 */
import { parseGoldenTable, type GoldenCase } from "@kasko/workbench/browser"
import { Schema } from "effect"
import { proposalKey, tariffVersionOf, type TariffVersion } from "../model/TariffVersion.js"
import { WorkspaceDocument } from "../model/WorkspaceDocument.js"

export interface GoldenTable {
  readonly file: string
  readonly rows: ReadonlyArray<GoldenCase>
  /** Why the CSV could not be read. */
  readonly problem?: string
}

export interface Workspace {
  readonly today: string
  readonly directory: string
  /** The file names of the proposals loaded beside the directory. */
  readonly proposals: ReadonlyArray<string>
  readonly versions: ReadonlyArray<TariffVersion>
  /** The golden tables, parsed when first asked for: pricing the first case needs none. */
  readonly goldenTables: () => ReadonlyArray<GoldenTable>
}

const goldenTableOf = (file: string, csv: string): GoldenTable => {
  try {
    return { file, rows: parseGoldenTable(csv) }
  } catch (error) {
    return { file, rows: [], problem: (error as Error).message }
  }
}

/** Fetches the workspace from the server and decodes it. */
export const loadWorkspace = async (): Promise<Workspace> => {
  // the same request as index.html's preload, so that the preloaded answer is used (the server forbids caching it)
  const response = await fetch("/api/workspace")
  if (!response.ok) throw new Error(`the workbench server answered ${response.status}: ${await response.text()}`)
  const document = Schema.decodeUnknownSync(WorkspaceDocument)(await response.json())
  return {
    today: document.today,
    directory: document.tariff_directory,
    proposals: document.tariffs.flatMap((file) => (file.proposal ? [file.file] : [])),
    versions: document.tariffs.map((file) =>
      file.proposal
        ? tariffVersionOf(proposalKey(file.file), file.source, true)
        : tariffVersionOf(file.file, file.source)
    ),
    goldenTables: once(() => document.golden_tables.map((table) => goldenTableOf(table.file, table.csv)))
  }
}

const once = <A>(compute: () => A): (() => A) => {
  let computed: { readonly value: A } | undefined
  return () => {
    computed ??= { value: compute() }
    return computed.value
  }
}

/** Every golden row of the workspace, in table order. */
export const goldenRows = (workspace: Workspace): Array<GoldenCase> =>
  workspace.goldenTables().flatMap((table) => table.rows)
