/**
 * Driver errors become the core's tagged StorageUnavailable, never an unhandled
 * exception: retryable when the condition can clear (busy, locked, full, I/O),
 * not when the file is broken. Constraint violations are bugs, not outages.
 */
import { StorageUnavailable } from "@kasko/core"
import { Data, Effect } from "effect"

/** The database cannot be opened safely: its schema is newer or was edited, or durability could not be verified. */
export class SqliteOpenRefused extends Data.TaggedError("SqliteOpenRefused")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

const RETRYABLE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PROTOCOL|NOMEM|INTERRUPT)/

const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : "UNKNOWN"

/** A driver error as an Effect failure: StorageUnavailable, or a defect for a constraint violation (a bug, not an outage). */
export const driverFailure = (operation: string, error: unknown): Effect.Effect<never, StorageUnavailable> => {
  const code = codeOf(error)
  if (code.startsWith("SQLITE_CONSTRAINT")) return Effect.die(error)
  return Effect.fail(
    new StorageUnavailable({
      reason: `${operation}: ${code}: ${error instanceof Error ? error.message : String(error)}`,
      retryable: RETRYABLE_CODES.test(code)
    })
  )
}

/** Runs a driver call; driver errors fail as StorageUnavailable, constraint violations die as the bugs they are. */
export const attempt = <A>(operation: string, call: () => A): Effect.Effect<A, StorageUnavailable> =>
  Effect.try({ try: call, catch: (error) => error }).pipe(Effect.catch((error) => driverFailure(operation, error)))
