#!/usr/bin/env node
import { runCli } from "./Cli.js"

const result = await runCli(process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === "--")))
process.stdout.write(result.stdout)
process.stderr.write(result.stderr)
process.exitCode = result.exitCode
