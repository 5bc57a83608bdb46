#!/usr/bin/env node
/** The `kasko` command: runs the command line and prints what it answers. */
import { runCli } from "./Cli.js"

const result = await runCli(process.argv.slice(2))
process.stdout.write(result.stdout)
process.stderr.write(result.stderr)
process.exitCode = result.exitCode
