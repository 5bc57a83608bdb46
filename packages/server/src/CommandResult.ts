/**
 * What a `kasko` command comes back with — what to print and its exit code —
 * and the one exit-code convention every command follows: 0 done, 1 the
 * command could not be done (a domain refusal, an unreachable database),
 * 2 the command line itself is wrong (printed with the command's usage), or
 * what it names is, for a command that checks it (`kasko products check`).
 */

export interface CommandResult {
  readonly stdout: string
  /**
   * Output too large to hold as one string, printed after `stdout` a chunk at a time: the `kasko`
   * command streams it to standard output as it drains, `runCli` joins it into `stdout`.
   */
  readonly stdoutChunks?: Iterable<string> | AsyncIterable<string>
  readonly stderr: string
  readonly exitCode: number
}

export const EXIT_OK = 0
export const EXIT_FAILED = 1
export const EXIT_USAGE = 2
/** What a checking command was given is refused (its findings on stdout): 2, as for what a command line gives wrong. */
export const EXIT_INVALID = 2

/** Done: what goes to standard output, and a note for standard error. */
export const done = (stdout: string, note = ""): CommandResult => ({ stdout, stderr: note, exitCode: EXIT_OK })

/** Could not be done, with the sentence that says why. */
export const failed = (command: string, message: string): CommandResult => ({
  stdout: "",
  stderr: `kasko ${command}: ${message}\n`,
  exitCode: EXIT_FAILED
})

/** A command line that asks for something impossible (a lifetime too long, a file that is not there): exit 2 with the usage. */
export class UsageError extends Error {
  override readonly name = "UsageError"
}

/**
 * Whether an error is a UsageError — by name, as the long-running commands'
 * modules are loaded apart from the bundled command line, each with its own
 * copy of this class.
 */
export const isUsageError = (error: unknown): boolean => error instanceof Error && error.name === "UsageError"

/**
 * Data a command was pointed at that cannot be used (a product directory with an error): exit 2 with the reasons,
 * without the usage, whose options were right. Told by `invalid` (not the class), as for UsageError.
 */
export class InvalidDataError extends Error {
  readonly invalid = true
}

/** Whether an error is an InvalidDataError (of any copy of this module). */
export const isInvalidDataError = (error: unknown): error is Error =>
  error instanceof Error && (error as { invalid?: unknown }).invalid === true

/** An InvalidDataError's answer: its message on standard error, exit 2. */
export const invalidData = (command: string, message: string): CommandResult => ({
  stdout: "",
  stderr: `kasko ${command}: ${message}\n`,
  exitCode: EXIT_INVALID
})

/** JSON as the commands print it: two-space indented, one trailing newline. */
export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`
