/**
 * The README's first screen takes a newcomer from a clone to a priced offer
 * (issue 30: one needed four environment variables before the first request):
 * within its first 55 lines — after the install section each kind of user reads first (issue 45) — shell blocks that install and start the service,
 * add a partner, issue a token and ask for an offer — setting no environment
 * variable, none of the commands needing one. That they run is
 * ShellBlocks.test.ts's; this holds where they are, and that the operator's
 * matters (every variable, hardening, instances, backups) stay in the
 * operations guide, linked from there.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = join(import.meta.dirname, "..", "..")
const README = readFileSync(join(ROOT, "README.md"), "utf8")
const FIRST_SCREEN_LINES = 55
const GUIDE = "docs/operations/README.md"

const firstScreen = README.split("\n").slice(0, FIRST_SCREEN_LINES).join("\n")
const shellOf = (text: string) =>
  [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1]!)
    .join("\n")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n")

describe("the README's first screen", () => {
  const commands = shellOf(firstScreen)

  it("installs and starts, adds a partner, issues a token and asks for an offer", () => {
    expect(commands).toContain("npx --yes pnpm@10 install && npx --yes pnpm@10 start")
    expect(commands).toMatch(/KEY=\$\(npx kasko partners add /)
    expect(commands).toMatch(/TOKEN=\$\(npx kasko tokens issue [^)]*offers:create/)
    expect(commands).toMatch(/curl [^\n]*-X POST localhost:8080\/insurance\/car\/offers/)
  })

  it("sets no environment variable", () => {
    // KEY and TOKEN are the shell's own, for the commands after them; a KASKO_… or PORT=… would be configuration
    const assignments = [...commands.matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=/g)].map((match) => match[1]!)
    expect(assignments).toEqual(["KEY", "TOKEN"])
    expect(commands).not.toMatch(/\bexport\b|\bKASKO_/)
  })

  it("leaves the operator's matters to the operations guide, and links it", () => {
    expect(README).toContain(`](${GUIDE})`)
    // the table of every variable is the guide's
    expect(README).not.toMatch(/^\| variable/m)
    const guide = readFileSync(join(ROOT, GUIDE), "utf8")
    for (const heading of ["Configuration", "Hardening", "What to alert on", "Running several instances", "Backups"])
      expect(guide).toMatch(new RegExp(`^#+ ${heading}$`, "m"))
  })
})
