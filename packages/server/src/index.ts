export { runCli } from "./Cli.js"
export { makeAdjustableClock, type AdjustableClock } from "./AdjustableClock.js"
export { databaseFile, startService, type RunningService, type ServiceOptions } from "./Service.js"
export { API_VERSION, readServiceConfig, type ServiceConfig } from "./ServiceConfig.js"
