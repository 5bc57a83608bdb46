/**
 * The arrows of ARCHITECTURE.md §1 as dependency-cruiser rules, checked by
 * `DependencyRules.test.ts` in `pnpm test`. Paths are from the repository
 * root, as the cruise resolves them: `@kasko/core` resolves through its
 * exports map (the "source" condition) to `packages/core/src/index.ts`, an npm
 * package to its file under `node_modules/`, a Node built-in to its bare name
 * with dependency type "core".
 */
import type { IFlattenedRuleSet } from "dependency-cruiser"

/** The folders cruised: every workspace's sources, tests, scripts and binaries (built output excluded). */
export const CRUISED = ["packages", "adapters", "examples", "bench", "test"]

/**
 * What is never cruised: what `tsc -b` writes, and hidden folders in a workspace (scratch files tests write
 * and remove while they run). Packages under node_modules are reached but not followed.
 */
export const NOT_CRUISED = [
  "^((packages|adapters|examples)/[^/]+|test)/dist/",
  "^(packages|adapters|examples|test|bench)/(|.*/)[.]"
]

/** Where an import of a workspace package or an npm package lands. */
const KASKO_PACKAGE = "^(packages|adapters)/"
const NPM_PACKAGE = "(^|/)node_modules/"

/**
 * What is bundled into the workbench page only: devDependencies of @kasko/workbench-web, absent from its
 * production install — @kasko/workbench (named by its entry modules), the editor, the CSV packages.
 */
const PAGE_ONLY = [
  "^packages/workbench/src/(index|browser)[.]ts$",
  "node_modules/(@codemirror|@lezer)/",
  "node_modules/csv-(parse|stringify)/"
]

export const DEPENDENCY_RULES: IFlattenedRuleSet = {
  forbidden: [
    // 1. The core is pure: the engine is Effect programs over values, and the workbench page bundles it into the browser.
    {
      name: "core-imports-no-other-package",
      comment: "packages/core/src imports no other @kasko package and no adapter: dependencies point inward (STYLE §3)",
      severity: "error",
      from: { path: "^packages/core/src/" },
      to: { path: KASKO_PACKAGE, pathNot: "^packages/core/" }
    },
    {
      name: "core-imports-no-node-built-in",
      comment:
        "packages/core/src imports no Node built-in (node:fs, node:net, node:http, node:child_process, node:crypto …): " +
        "I/O belongs to adapters, and the core also runs in the workbench page",
      severity: "error",
      from: { path: "^packages/core/src/" },
      to: { dependencyTypes: ["core"] }
    },
    {
      name: "core-imports-only-effect-and-json-rules-engine",
      comment:
        "packages/core/src depends on effect and json-rules-engine only, and on ipaddr.js (the IANA special-purpose " +
        "address registries, pure data and parsing, for the webhook endpoint policy): no SQL driver (better-sqlite3, " +
        "pg), no transport (express, @effect/platform), no jose, no pino",
      severity: "error",
      from: { path: "^packages/core/src/" },
      to: { path: NPM_PACKAGE, pathNot: "node_modules/(effect|json-rules-engine|ipaddr\\.js)/" }
    },

    // 2. Adapters stand side by side, each on the core alone.
    {
      name: "adapter-imports-only-core",
      comment:
        "an adapter imports @kasko/core (and a SQL store @kasko/sql) and nothing else of kasko: adapters never import each other; the server composes them",
      severity: "error",
      from: { path: "^adapters/([^/]+)/", pathNot: "^adapters/[^/]+/test/" },
      to: { path: KASKO_PACKAGE, pathNot: ["^packages/core/", "^packages/sql/", "^adapters/$1/"] }
    },
    {
      name: "only-sql-stores-import-sql",
      comment: "@kasko/sql holds what the SQL stores share: of the adapters only sqlite and postgres import it",
      severity: "error",
      from: { path: "^adapters/", pathNot: "^adapters/(sqlite|postgres)/" },
      to: { path: "^packages/sql/" }
    },
    {
      name: "sql-imports-only-core",
      comment:
        "@kasko/sql, the rows and migration plan the SQL stores share, is written against @kasko/core alone: what it holds is the same for every SQL store",
      severity: "error",
      from: { path: "^packages/sql/" },
      to: { path: KASKO_PACKAGE, pathNot: ["^packages/core/", "^packages/sql/"] }
    },
    {
      name: "adapter-test-imports-core-and-the-store-contracts",
      comment:
        "an adapter's own tests import the adapter, @kasko/core and the contracts every store passes (@kasko/store-contracts), never another adapter",
      severity: "error",
      from: { path: "^adapters/([^/]+)/test/" },
      to: {
        path: KASKO_PACKAGE,
        pathNot: ["^packages/core/", "^packages/sql/", "^adapters/$1/", "^packages/store-contracts/"]
      }
    },
    {
      name: "store-contracts-import-only-core",
      comment:
        "the store contracts are written against the ports of @kasko/core alone, so every store runs the same suites",
      severity: "error",
      from: { path: "^packages/store-contracts/" },
      to: { path: KASKO_PACKAGE, pathNot: ["^packages/core/", "^packages/store-contracts/"] }
    },
    {
      name: "only-tests-import-the-store-contracts",
      comment: "the store contracts are vitest suites: tests run them, no package's source imports them",
      severity: "error",
      from: {
        path: "^(packages|adapters|examples)/",
        pathNot: ["^adapters/[^/]+/test/", "^packages/store-contracts/"]
      },
      to: { path: "^packages/store-contracts/" }
    },

    // 3. Only the server composes.
    {
      name: "only-server-imports-adapters",
      comment: "of the packages, only packages/server (the composition root) imports adapters",
      severity: "error",
      from: { path: "^packages/", pathNot: "^packages/server/" },
      to: { path: "^adapters/" }
    },
    {
      name: "workbench-imports-only-core",
      comment: "packages/workbench, the actuary's tools, is built on @kasko/core alone",
      severity: "error",
      from: { path: "^packages/workbench/" },
      to: { path: KASKO_PACKAGE, pathNot: ["^packages/core/", "^packages/workbench/"] }
    },
    {
      name: "workbench-web-imports-only-core-and-workbench",
      comment: "packages/workbench-web imports @kasko/core, and @kasko/workbench for the page it bundles",
      severity: "error",
      from: { path: "^packages/workbench-web/" },
      to: { path: KASKO_PACKAGE, pathNot: ["^packages/core/", "^packages/workbench(-web)?/"] }
    },
    {
      name: "workbench-web-server-reaches-no-page-only-package",
      comment:
        "what `kasko workbench` runs in Node (workbench-web/src/server, its package's main export) never reaches " +
        "@kasko/workbench, the editor or the CSV builds: they are devDependencies, bundled into the page only",
      severity: "error",
      from: { path: "^packages/workbench-web/src/server/" },
      to: { path: PAGE_ONLY, reachable: true }
    },
    {
      name: "workbench-page-imports-no-node",
      comment:
        "the workbench page (workbench-web/src/browser and the src/model it shares) runs in the browser: no Node built-in, no server module",
      severity: "error",
      from: { path: "^packages/workbench-web/src/(browser|model)/" },
      to: { dependencyTypes: ["core"] }
    },
    {
      name: "workbench-browser-modules-import-no-node",
      comment:
        "@kasko/workbench/browser is what the page and its web workers load: the workbench's modules import no Node built-in, but for its Node entry, the impact's worker threads and their pool",
      severity: "error",
      from: {
        path: "^packages/workbench/src/",
        pathNot: "^packages/workbench/src/(index|PortfolioImpact|ImpactWorker)[.]ts$"
      },
      to: { dependencyTypes: ["core"] }
    },
    {
      name: "workbench-browser-entry-reaches-no-node-module",
      comment: "@kasko/workbench/browser never reaches the workbench's Node-only modules (the worker pool, the worker)",
      severity: "error",
      from: { path: "^packages/workbench/src/browser[.]ts$" },
      to: { path: "^packages/workbench/src/(index|PortfolioImpact|ImpactWorker)[.]ts$", reachable: true }
    },
    {
      name: "workbench-page-imports-no-server-module",
      comment:
        "the workbench page (workbench-web/src/browser and src/model) never imports workbench-web/src/server, which runs in Node",
      severity: "error",
      from: { path: "^packages/workbench-web/src/(browser|model)/" },
      to: { path: "^packages/workbench-web/src/server/" }
    },

    // 4. No cycles.
    {
      name: "no-circular-imports",
      comment: "no module reaches itself through its imports (type-only imports included)",
      severity: "error",
      from: {},
      to: { circular: true }
    },

    // 5. A package is entered only through its exports map.
    {
      name: "no-relative-import-into-another-package",
      comment:
        "a relative path never leaves its own workspace (packages/X, adapters/X, examples/X, test, bench): " +
        "another package is imported by its name, through its exports map",
      severity: "error",
      from: { path: "^((packages|adapters|examples)/[^/]+|test|bench)/" },
      to: { dependencyTypes: ["local"], pathNot: "^$1/" }
    },
    {
      name: "package-imports-declared-by-its-own-package-json",
      comment:
        "a package (packages/X, adapters/X) imports an npm package only when its own package.json declares it: " +
        "pnpm would also find the root's devDependencies (vitest, typescript …) from there, and knip counts them as " +
        "every workspace's, but an install of the package has only what it declares",
      severity: "error",
      from: { path: KASKO_PACKAGE },
      // dependency-cruiser may add npm-no-pkg beside the kind a package.json declares (a peer also installed as a devDependency)
      to: {
        dependencyTypes: ["npm-no-pkg", "npm-unknown"],
        dependencyTypesNot: ["npm", "npm-dev", "npm-peer", "npm-optional"]
      }
    },
    {
      name: "imports-resolve-through-exports",
      comment:
        "every import resolves, and a package's is resolved through its exports map: " +
        "a deep import (@kasko/core/src/…, …/internal/…) is not exported, so it does not resolve",
      severity: "error",
      from: {},
      to: { couldNotResolve: true }
    }
  ]
}
