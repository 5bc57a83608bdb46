/**
 * knip's view of the workspace, checked by `DependencyUse.test.ts` in
 * `pnpm test`: every dependency a package.json declares is used, and every
 * package a file imports (or a script runs) is declared by its workspace — or
 * by the root, which knip counts as every workspace's (the dependency rule
 * `package-imports-declared-by-its-own-package-json` closes that gap for the
 * packages). Entry points beyond what knip finds itself (package.json exports,
 * bins and scripts, vitest's test files) are named here per workspace.
 * Unused files are reported too, so that no file escapes the import check by
 * being reached from no entry: a file run by path needs its entry here.
 * Unused exports are not checked: public APIs are being redesigned.
 */
import type { KnipConfig } from "knip"

export default {
  include: ["dependencies", "unlisted", "unresolved", "binaries", "files"],
  workspaces: {
    ".": {
      // the `kasko` command at the root of the repository (`npx kasko …` in the README); TypeDoc's Markdown output,
      // which scripts/api-docs.mjs (`pnpm docs:api`) has TypeDoc load by its name, never imported
      ignoreDependencies: ["@kasko/server", "typedoc-plugin-markdown"],
      // .ci/run runs the release's install check by path
      entry: ["scripts/release-install-check.mjs"]
    },
    "packages/core": {},
    "packages/server": {
      // bin/kasko.mjs runs dist/cli/kasko.mjs, which scripts/bundle-cli.mjs (the root's build) bundles from src/main.ts
      entry: ["src/main.ts"]
    },
    "packages/workbench": {},
    "packages/workbench-web": {
      // the page and its impact web workers' script: scripts/bundle.mjs bundles both with esbuild
      entry: ["src/browser/main.ts", "src/browser/impact/ImpactWebWorker.ts"]
    },
    "adapters/*": {},
    "adapters/sqlite": {
      // test/Soak.test.ts, test/GroupCommit.test.ts and test/Crash.test.ts start these as child processes, by path
      entry: ["test/soak-child.mjs", "test/group-commit-child.mjs", "test/crash-writer.mjs"]
    },
    "adapters/documents": {
      // PdfDocuments.ts reads DejaVu Sans's TrueType files from the package (createRequire(…).resolve): never imported
      ignoreDependencies: ["dejavu-fonts-ttf"]
    },
    "adapters/express": {
      // /docs serves swagger-ui-dist's files from its directory, found with createRequire(…).resolve: never imported
      ignoreDependencies: ["swagger-ui-dist"]
    },
    "examples/*": {},
    "examples/actuary-workbench": {
      // `golden:generate` and `impact:generate` run their compiled forms, dist/src/generate*.js
      entry: ["src/generateGoldenTable.ts", "src/generateImpactSummary.ts"]
    },
    bench: {
      // besides run.mjs (`pnpm bench`): the sections start http-server.mjs and memory-child.mjs as child
      // processes, by path; profile.mjs and versus.mjs are run by hand (`node bench/profile.mjs`, bench/README.md)
      entry: ["http-server.mjs", "memory-child.mjs", "profile.mjs", "versus.mjs"]
    },
    test: {
      // architecture/ArchitectureDocument.test.ts starts request-path-child.mjs to measure a request's files;
      // cli/WithoutWorkbench.test.ts runs kasko with `node --import without-workbench.mjs`, which registers the hooks
      // file; golden/capture.ts is run by hand, compiled (`node test/dist/golden/capture.js`), to record the answers,
      // and examples/record-van-golden.mjs so (`node test/examples/record-van-golden.mjs`), the example product's table;
      // upgrade/record-fixtures.ts is run by hand, compiled, to record a release's upgrade fixture
      entry: [
        "architecture/request-path-child.mjs",
        "cli/fixtures/without-workbench.mjs",
        "cli/fixtures/without-workbench-hooks.mjs",
        "golden/capture.ts",
        "examples/record-van-golden.mjs",
        "upgrade/record-fixtures.ts"
      ],
      ignoreDependencies: [
        // run as commands from node_modules/.bin by http/OpenApiLint.test.ts
        "@redocly/cli",
        "@stoplight/spectral-cli",
        // workbench/support.ts reads axe.min.js (found with createRequire(…).resolve) into the page under test
        "axe-core",
        // imported by packages/sql/README.md's example, which readme/TypeScriptBlocks.test.ts compiles from here
        "@kasko/sql",
        // mcp/Conformance.test.ts runs the suite's command by path (its dist/index.js) against the service's /mcp
        "@modelcontextprotocol/conformance"
      ],
      // e2fsprogs' chattr, a system command: http/StorageFault.test.ts makes the database files immutable with it;
      // PostgreSQL's pg_dump, which upgrade/record-fixtures.ts (run by hand) dumps a fixture's schema with
      ignoreBinaries: ["chattr", "pg_dump"]
    }
  }
} satisfies KnipConfig
