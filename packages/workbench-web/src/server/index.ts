export { startWorkbenchServer, type RunningWorkbench, type WorkbenchServerOptions } from "./WorkbenchServer.js"
export { saveTariffVersion, type SaveOptions, type SaveOutcome } from "./VersionSaving.js"
export { readGoldenTables, readTariffFiles } from "./TariffDirectory.js"
