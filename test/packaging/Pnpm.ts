import { execFileSync } from "node:child_process"

/** pnpm as the test runner was started with it, or the registry's pnpm 10. */
export const pnpm = (args: Array<string>, cwd: string) => {
  const execPath = process.env["npm_execpath"]
  return execPath !== undefined && /pnpm/.test(execPath)
    ? execFileSync(process.execPath, [execPath, ...args], { cwd, encoding: "utf8" })
    : execFileSync("npx", ["--yes", "pnpm@10", ...args], { cwd, encoding: "utf8" })
}
