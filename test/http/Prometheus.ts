/**
 * Reading the service's Prometheus metrics in tests: one scrape as samples, or scrapes until a condition holds;
 * and promtool, Prometheus's own checker, where it is installed.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { expect } from "vitest"

/** `name{label="value",…}` (labels in the order served) → value. */
export type Samples = ReadonlyMap<string, number>

/** Prometheus text format as samples. */
export const parseSamples = (text: string): Samples =>
  new Map(
    text
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map((line) => {
        const space = line.lastIndexOf(" ")
        return [line.slice(0, space), Number(line.slice(space + 1))] as const
      })
  )

/** GET /metrics on the metrics port, checked to answer Prometheus's text format. */
export const scrape = async (metricsPort: number | undefined): Promise<Samples> => {
  const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
  expect(answer.status).toBe(200)
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
  return parseSamples(await answer.text())
}

/**
 * Scrapes, every 50 ms, until `holds` says so (a counter moves where nothing outside the service is told), and
 * answers that scrape. No give-up: a test that never sees it runs out of its own time, however busy the machine.
 */
export const scrapeUntil = async (
  metricsPort: number | undefined,
  holds: (samples: Samples) => boolean
): Promise<Samples> => {
  let samples = await scrape(metricsPort)
  while (!holds(samples)) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    samples = await scrape(metricsPort)
  }
  return samples
}

const PROMTOOL = "/usr/bin/promtool"

/**
 * Whether to skip a suite of promtool's (Debian's prometheus package): only outside CI, only without promtool,
 * saying so. In CI a missing promtool fails the suite (`.ci/run` installs it).
 */
export const skipWithoutPromtool = (suite: string): boolean => {
  const skip = !existsSync(PROMTOOL) && !process.env["CI"]
  if (skip) console.warn(`skipping ${suite}: ${PROMTOOL} is not installed (apt-get install prometheus)`)
  return skip
}

/** promtool's exit status and everything it printed, for `args` (and `input` on its standard input). */
export const promtool = (args: ReadonlyArray<string>, input?: string): { status: number | null; output: string } => {
  const run = spawnSync(PROMTOOL, args, {
    ...(input === undefined ? {} : { input }),
    encoding: "utf8",
    timeout: 60_000
  })
  if (run.error !== undefined)
    throw new Error(`cannot run ${PROMTOOL} (apt-get install prometheus): ${run.error.message}`)
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}
