import { configDefaults, defineConfig } from "vitest/config"

const NOT_SUITES = [...configDefaults.exclude, "**/dist/**"]
// the PostgreSQL suites form a project of their own, so their server is set up only when one of them runs
// (the README's shell blocks are among them: the operations guide's "Running several instances" starts kasko on PostgreSQL)
const POSTGRES_SUITES = [
  "test/postgres/**/*.test.ts",
  "adapters/postgres/test/**/*.test.ts",
  "test/readme/ShellBlocks.test.ts"
]

// the fast loop a contributor runs while editing (`pnpm test:unit`, under a minute): the packages' and adapters'
// own tests, the examples', the exported names, lifecycle and properties — no browser, no PostgreSQL, no service
// started as a process. `pnpm test` runs these with the rest.
const UNIT_SUITES = [
  "{packages,adapters,examples}/*/test/**/*.test.ts",
  "test/api/**/*.test.ts",
  "test/lifecycle/**/*.test.ts",
  "test/properties/**/*.test.ts",
  "test/architecture/Citations.test.ts",
  "test/architecture/NamespaceNames.test.ts",
  // what `pnpm release` refuses to publish
  "scripts/**/*.test.mjs"
]

// seconds each, and what they prove (durability across a killed process, statements finalised under GC, the
// stores' contracts with an fsync per commit) does not move while editing: `pnpm test` runs them
const SLOW_IN_UNIT = [
  "adapters/sqlite/test/Crash.test.ts",
  "adapters/sqlite/test/Soak.test.ts",
  "adapters/sqlite/test/StoreContractsFull.test.ts"
]

export default defineConfig({
  // the "source" condition reaches vite's resolution only: the workspace packages a test imports are loaded by
  // Node from their builds (dist), which `pnpm test` and `pnpm test:unit` make first (tsc -b, incremental)
  resolve: { conditions: ["source"] },
  test: {
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        // the same pool as the other projects: a project in a pool of its own runs after the rest, not beside them
        test: {
          name: "unit",
          include: UNIT_SUITES,
          exclude: [...NOT_SUITES, ...POSTGRES_SUITES, ...SLOW_IN_UNIT]
        }
      },
      {
        extends: true,
        test: { name: "durability", include: SLOW_IN_UNIT, exclude: NOT_SUITES }
      },
      {
        extends: true,
        test: {
          name: "kasko",
          include: ["{packages,adapters,examples,test}/**/*.test.ts", "scripts/**/*.test.mjs"],
          exclude: [...NOT_SUITES, ...POSTGRES_SUITES, ...UNIT_SUITES]
        }
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: POSTGRES_SUITES,
          exclude: NOT_SUITES,
          globalSetup: ["test/postgres/TestDatabaseSetup.ts"]
        }
      }
    ]
  }
})
