/**
 * The version of kasko this is: the `@kasko/server` package's, which a release sets (changesets). `kasko --version`
 * prints it and `/health` answers it, so an operator knows what runs.
 */
import { createRequire } from "node:module"

// read by the package's own name, so that it is found from the compiled modules and the command's bundle alike
const manifest = createRequire(import.meta.url)("@kasko/server/package.json") as { readonly version: string }

/** The version of the `@kasko/server` package running. */
export const SERVICE_VERSION: string = manifest.version
