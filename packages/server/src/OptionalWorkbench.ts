/**
 * The actuary's tools (`@kasko/workbench`, `@kasko/workbench-web`) are optional
 * peer dependencies of the server: the service's install leaves them, and their
 * charting libraries, out. Their commands load them when they run, and say
 * what to install when they are not there.
 */
import { type CommandResult, failed } from "./CommandResult.js"

const WORKBENCH_PACKAGES = ["@kasko/workbench", "@kasko/workbench-web"]

const INSTALL_HINT =
  "the actuary's tools are installed apart from the service: npm install @kasko/workbench @kasko/workbench-web"

/** Whether an import failed because one of the workbench packages is not installed. */
const isWorkbenchMissing = (error: unknown): boolean =>
  error instanceof Error &&
  (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" &&
  WORKBENCH_PACKAGES.some((name) => error.message.includes(`'${name}'`))

/** Runs a workbench command on its module, loaded now; without the workbench installed, fails saying what to install. */
export const runWithWorkbench = async <M>(
  command: string,
  load: () => Promise<M>,
  run: (module: M) => Promise<CommandResult>
): Promise<CommandResult> => {
  let loaded: M
  try {
    loaded = await load()
  } catch (error) {
    if (isWorkbenchMissing(error)) return failed(command, INSTALL_HINT)
    throw error
  }
  return run(loaded)
}
