/**
 * The service's install leaves out the actuary's tools (optional peers of the
 * server): there, `kasko` serves, prices offers and administers as ever, and
 * the workbench's commands say what to install instead of failing with a
 * stack trace. `fixtures/without-workbench.mjs` makes the workbench packages
 * unresolvable, as they are in that install.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const KASKO = join(ROOT, "packages", "server", "bin", "kasko.mjs")
const WITHOUT_WORKBENCH = join(import.meta.dirname, "fixtures", "without-workbench.mjs")

const kaskoWithoutWorkbench = (...args: Array<string>) =>
  spawnSync(process.execPath, ["--import", WITHOUT_WORKBENCH, KASKO, ...args], { encoding: "utf8", timeout: 60_000 })

describe("kasko without the actuary's tools installed", () => {
  it.each([
    ["price", "--product", "insurance-car-leasing", "--feature", "standard"],
    [
      "price-grid",
      "--product",
      "insurance-car-leasing",
      "--feature",
      "standard",
      "--x",
      "vehicle_price=100000:200000:100000",
      "--y",
      "youngest_user_age=30,40",
      "--out",
      "grid"
    ],
    ["tariff", "check", join(ROOT, "packages", "core", "tariffs", "insurance-car-leasing", "v1.json")],
    [
      "tariff",
      "impact",
      join(ROOT, "packages", "core", "tariffs"),
      join(ROOT, "packages", "core", "tariffs"),
      "--portfolio",
      join(ROOT, "examples", "actuary-workbench", "impact", "portfolio-10000.csv")
    ],
    ["portfolio", "generate", "--size", "10", "--seed", "1"],
    ["workbench", "--port", "0"]
  ])("kasko %s exits 1 saying what to install", (...args) => {
    const result = kaskoWithoutWorkbench(...args)
    expect(result.stderr).toBe(
      `kasko ${args[0] === "tariff" || args[0] === "portfolio" ? `${args[0]} ${args[1]}` : args[0]}: the actuary's tools are installed apart from the service: npm install @kasko/workbench @kasko/workbench-web\n`
    )
    expect(result.status).toBe(1)
  })

  it("still prices an offer", () => {
    const result = kaskoWithoutWorkbench("offer")
    expect(result.stdout).toContain("insurance-car-leasing, standard feature: 13.002 kr a year")
    expect(result.status).toBe(0)
  })

  it("still checks product folders: the service's install can check what it is to load", () => {
    const result = kaskoWithoutWorkbench("products", "check", join(import.meta.dirname, "fixtures", "a-good-product"))
    expect(result.stdout).toBe("1 product folder checked: 0 errors, 0 warnings\n")
    expect(result.status).toBe(0)
  })
})
