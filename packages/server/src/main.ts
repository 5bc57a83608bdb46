#!/usr/bin/env node
/** The `kasko` command: runs the command line and prints what it answers. */
import { runCommandLine } from "./Cli.js"

/**
 * Writes a command's output to standard output, a chunk at a time, waiting for it to drain when it
 * falls behind, so a large output (`kasko portfolio generate` of a million policies) is never held
 * whole. A reader that goes away (`| head`) ends the output quietly, as a closed pipe ends any command's.
 */
const print = async (chunks: Iterable<string> | AsyncIterable<string>): Promise<void> => {
  let failure: NodeJS.ErrnoException | undefined
  const failed = (error: NodeJS.ErrnoException) => {
    failure ??= error
  }
  process.stdout.on("error", failed)
  for await (const chunk of chunks) {
    if (failure !== undefined) break
    if (!process.stdout.write(chunk))
      await new Promise<void>((resolve) => {
        const done = () => {
          process.stdout.off("drain", done)
          process.stdout.off("error", done)
          resolve()
        }
        process.stdout.on("drain", done)
        process.stdout.on("error", done)
      })
  }
  if (failure !== undefined && failure.code !== "EPIPE") throw failure
}

const result = await runCommandLine(process.argv.slice(2))
process.stdout.write(result.stdout)
if (result.stdoutChunks !== undefined) await print(result.stdoutChunks)
process.stderr.write(result.stderr)
process.exitCode = result.exitCode
