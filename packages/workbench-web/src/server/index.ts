export {
  startWorkbenchServer,
  type RunningWorkbench,
  type WorkbenchProducts,
  type WorkbenchServerOptions
} from "./WorkbenchServer.js"
export { saveTariffVersion, type SaveOptions, type SaveOutcome, type TariffSaveOptions } from "./VersionSaving.js"
export { saveProductVersion } from "./ProductVersionSaving.js"
export type { ProductFolder } from "../model/ProductFolders.js"
export { readGoldenTables, readTariffFiles } from "./TariffDirectory.js"
