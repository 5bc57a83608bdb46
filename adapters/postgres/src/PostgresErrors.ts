/**
 * Driver errors become the core's StorageUnavailable: retryable when waiting
 * may help (connection lost or refused, server shutting down, too many
 * connections, serialization failure, deadlock), not otherwise. Unique
 * violations are bugs (ids collide) and die.
 */
import { StorageUnavailable } from "@kasko/core"
import { Effect } from "effect"

const RETRYABLE_SQLSTATE = /^(08|53|57P0|40001|40P01)/
const RETRYABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"])

const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : ""

const isConnectionTrouble = (error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  return /Connection terminated|connection timeout|Client has encountered a connection error|terminating connection/i.test(
    message
  )
}

export const driverFailure = (operation: string, error: unknown): Effect.Effect<never, StorageUnavailable> => {
  const code = codeOf(error)
  if (code === "23505") return Effect.die(error)
  return Effect.fail(
    new StorageUnavailable({
      reason: `${operation}: ${code || "error"}: ${error instanceof Error ? error.message : String(error)}`,
      retryable: RETRYABLE_SQLSTATE.test(code) || RETRYABLE_NODE_CODES.has(code) || isConnectionTrouble(error)
    })
  )
}

/** Runs a driver call; its rejections fail as StorageUnavailable (or die, for unique violations). */
export const attempt = <A>(operation: string, call: () => Promise<A>): Effect.Effect<A, StorageUnavailable> =>
  Effect.tryPromise({ try: call, catch: (error) => error }).pipe(
    Effect.catch((error) => driverFailure(operation, error))
  )
