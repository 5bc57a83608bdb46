#!/usr/bin/env node
/** The `kasko` command: runs the command line and prints what it answers. */
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { runCommandLine } from "./Cli.js"

/**
 * Writes a command's output to standard output as it drains, so a large output (`kasko portfolio generate` of a
 * million policies) is never held whole. A reader that goes away (`| head`) ends the output quietly, as a closed
 * pipe ends any command's.
 */
const print = async (chunks: Iterable<string> | AsyncIterable<string>): Promise<void> => {
  try {
    await pipeline(Readable.from(chunks), process.stdout, { end: false })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error
  }
}

const result = await runCommandLine(process.argv.slice(2))
process.stdout.write(result.stdout)
if (result.stdoutChunks !== undefined) await print(result.stdoutChunks)
process.stderr.write(result.stderr)
process.exitCode = result.exitCode
