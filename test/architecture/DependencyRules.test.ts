/**
 * The packages keep their arrows (ARCHITECTURE.md §1, STYLE §3): the rules of
 * `DependencyRules.ts`, checked by dependency-cruiser over every workspace's
 * sources, tests, scripts and binaries. A failure lists each broken rule with
 * the import that breaks it and why the rule is there.
 */
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { CRUISED, DEPENDENCY_RULES, NOT_CRUISED } from "./DependencyRules.js"

const ROOT = join(import.meta.dirname, "..", "..")

const cruiseRepository = async (): Promise<ICruiseResult> => {
  const { output } = await cruise(CRUISED, {
    baseDir: ROOT,
    validate: true,
    ruleSet: DEPENDENCY_RULES,
    exclude: { path: NOT_CRUISED },
    doNotFollow: { path: "(^|/)node_modules/" },
    // type-only imports are arrows too: a type from an adapter in the core is still a dependency on it
    tsPreCompilationDeps: true,
    moduleSystems: ["es6", "cjs"],
    // as tsc and vitest resolve: a workspace package through the "source" condition of its exports map
    enhancedResolveOptions: {
      conditionNames: ["source", "import", "node", "default"],
      exportsFields: ["exports"],
      extensions: [".ts", ".mjs", ".js", ".json"]
    }
  })
  if (typeof output === "string") throw new Error("dependency-cruiser answered text, not a cruise result")
  return output
}

/** An npm package's file as the package and its path (`vitest/dist/index.js`), not pnpm's store path. */
const shortName = (module: string): string => module.replace(/^(.*\/)?node_modules\//, "")

/** `rule: from → to`; a cycle or a path reached through other modules written out whole. */
const describeViolation = (violation: IViolation): string => {
  const path = violation.cycle ?? violation.via
  const modules =
    path === undefined ? [violation.from, violation.to] : [violation.from, ...path.map((step) => step.name)]
  return `${violation.rule.name}: ${modules.map(shortName).join(" → ")}`
}

describe("the dependency rules", () => {
  let result: ICruiseResult
  beforeAll(async () => {
    result = await cruiseRepository()
  })

  it("cruises every package, resolving workspace packages to their sources", () => {
    expect(result.summary.totalCruised).toBeGreaterThan(250)
    const adapterToCore = result.modules
      .find((module) => module.source === "adapters/memory/src/MemoryQuoteStore.ts")
      ?.dependencies.find((dependency) => dependency.module === "@kasko/core")
    expect(adapterToCore?.resolved).toBe("packages/core/src/index.ts")
  })

  it("are all kept: core pure, adapters apart, only the server composing, no cycles, no package entered from behind", () => {
    const broken = result.summary.violations.map(describeViolation)
    const reasons = [...new Set(result.summary.violations.map((violation) => violation.rule.name))].map(
      (name) => `${name}: ${DEPENDENCY_RULES.forbidden?.find((rule) => rule.name === name)?.comment}`
    )
    expect(broken, `why these rules (test/architecture/DependencyRules.ts):\n${reasons.join("\n")}`).toEqual([])
  })
})
