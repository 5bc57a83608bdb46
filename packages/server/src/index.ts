/**
 * `@kasko/server`: kasko's composition root and the `kasko` command — `startService` runs the partner API with
 * its stores, credentials, webhooks and documents as configured from the environment (`readServiceConfig`), and
 * `runCli` is the command line. Embed it to run the whole service in a process of yours, or in end-to-end tests.
 * @module
 */
export { runCli } from "./Cli.js"
export { makeAdjustableClock, type AdjustableClock } from "./AdjustableClock.js"
export { makeLogger, startService, type RunningService, type ServiceOptions } from "./Service.js"
export { databaseFile } from "./Stores.js"
export { API_VERSION, readServiceConfig, type ServiceConfig } from "./ServiceConfig.js"
// products added as files: a directory of product folders read, checked and loaded beside the shipped products
export * as ProductFolders from "./ProductFolders.js"
