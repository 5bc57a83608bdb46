/**
 * The alert rules kasko ships (docs/operations/kasko-alerts.yml) are rules
 * Prometheus loads, and pass their unit tests (kasko-alerts.test.yml) — among
 * them the first dead letter and the first 5xx firing though their series are
 * born with them — with at least one test for every alert. Run by promtool;
 * skipped, saying so, only outside CI where it is not installed.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { promtool, skipWithoutPromtool } from "./Prometheus.js"

const OPERATIONS_DOCS = join(import.meta.dirname, "..", "..", "docs", "operations")
const RULES = join(OPERATIONS_DOCS, "kasko-alerts.yml")
const RULE_TESTS = join(OPERATIONS_DOCS, "kasko-alerts.test.yml")

/** The alerts a rule file defines. */
const alertsOf = (rules: string): Array<string> =>
  [...rules.matchAll(/^\s*- alert: (\S+)$/gm)].map((match) => match[1]!)

/** The alerts a unit test file expects to fire somewhere (an `alertname` with `exp_alerts`). */
const firingIn = (tests: string): Set<string> =>
  new Set([...tests.matchAll(/^\s*alertname: (\S+)\n\s*exp_alerts:/gm)].map((match) => match[1]!))

describe.skipIf(skipWithoutPromtool("the alert rules' tests"))("the shipped alert rules", () => {
  it("are rules Prometheus loads (promtool check rules)", () => {
    const checked = promtool(["check", "rules", RULES])
    expect(checked.output).toContain("SUCCESS")
    expect(checked.status, checked.output).toBe(0)
  })

  it("pass their unit tests (promtool test rules)", () => {
    const tested = promtool(["test", "rules", RULE_TESTS])
    expect(tested.status, tested.output).toBe(0)
  })

  it("have a unit test that fires each alert", () => {
    const alerts = alertsOf(readFileSync(RULES, "utf8"))
    expect(alerts.length).toBeGreaterThan(0)
    const fired = firingIn(readFileSync(RULE_TESTS, "utf8"))
    expect(alerts.filter((alert) => !fired.has(alert))).toEqual([])
  })
})
