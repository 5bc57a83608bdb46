import { configDefaults, defineConfig } from "vitest/config"

const NOT_SUITES = [...configDefaults.exclude, "**/dist/**"]
// the PostgreSQL suites form a project of their own, so their server is set up only when one of them runs
// (the README's shell blocks are among them: "Running several instances" starts kasko on PostgreSQL)
const POSTGRES_SUITES = [
  "test/postgres/**/*.test.ts",
  "test/storage-contract/postgres.contract.test.ts",
  "test/readme/ShellBlocks.test.ts"
]

export default defineConfig({
  resolve: { conditions: ["source"] },
  test: {
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "kasko",
          include: ["{packages,adapters,examples,test}/**/*.test.ts"],
          exclude: [...NOT_SUITES, ...POSTGRES_SUITES]
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
