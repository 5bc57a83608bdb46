/**
 * Whether partners or subscription keys may have changed, told by PostgreSQL
 * itself: triggers on both tables (migration 5) `pg_notify` the channel
 * `kasko_partner_changes` with their schema's name on every committed change —
 * through any instance, the `kasko` command or plain SQL — and one connection
 * of its own, outside the pool, LISTENs. The PartnerStore's `changes` is a
 * generation that moves on each notification for this schema and on each
 * (re)connection, since notifications sent while nobody listened are lost.
 * While the listener is not connected, every read answers a new value: nothing
 * remembered is used until it listens again.
 */
import { Clock, Deferred, Effect, Exit, Schedule, type Scope } from "effect"
import pg from "pg"

/** The channel the triggers notify; the payload is the schema whose partners or keys changed. */
export const CHANNEL = "kasko_partner_changes"

/** Where to listen, and for which schema's changes. */
export interface ListenerOptions {
  readonly connectionString: string
  readonly schema: string
  /** How often the listening connection is asked for a sign of life (5 s by default). */
  readonly heartbeatMillis?: number
}

// a connection that went silent without closing (a firewall dropping it) would lose notifications unnoticed
// until TCP keepalive gives up, minutes later: asked every few seconds, it is found out within one heartbeat
const HEARTBEAT_TIMEOUT = "2 seconds"

// 100 ms doubling to 5 s, jittered so that instances cut off together do not come back in step
const RECONNECT = Schedule.min([Schedule.exponential("100 millis"), Schedule.spaced("5 seconds")]).pipe(
  Schedule.jittered
)

/**
 * The store's `changes`, whose first read starts the listener, which runs —
 * reconnecting with backoff after any failure — until the scope closes.
 */
export const listen = (options: ListenerOptions): Effect.Effect<Effect.Effect<number>, never, Scope.Scope> =>
  Effect.gen(function* () {
    // the client that has LISTENed and not lost its connection since; undefined while there is none
    let listening: pg.Client | undefined
    let generation = 0

    /** A client not yet connected, and what completes when its connection is lost (or was never made). */
    const newClient = Effect.sync(() => {
      const client = new pg.Client({
        connectionString: options.connectionString,
        // tells the listener from the pool's connections in pg_stat_activity
        application_name: `kasko:${options.schema}:changes`,
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000
      })
      const lost = Deferred.makeUnsafe<void>()
      // told synchronously, so that the read right after a loss already remembers nothing
      const onLost = () => {
        if (listening === client) listening = undefined
        Deferred.doneUnsafe(lost, Exit.void)
      }
      // an 'error' nobody listens to would crash the process; the loss is all it means here
      client.on("error", onLost)
      client.on("end", onLost)
      client.on("notification", (notification) => {
        if (notification.channel === CHANNEL && notification.payload === options.schema) generation++
      })
      return { client, lost }
    })

    const close = ({ client }: { readonly client: pg.Client }) =>
      // a half-open connection may never answer the goodbye
      Effect.tryPromise(() => client.end()).pipe(Effect.timeout("2 seconds"), Effect.ignore)

    /** Connects and LISTENs (failing when either does), then waits until the connection is lost. */
    const session = ({ client, lost }: { readonly client: pg.Client; readonly lost: Deferred.Deferred<void> }) =>
      Effect.gen(function* () {
        yield* Effect.tryPromise(async () => {
          await client.connect()
          await client.query(`LISTEN ${CHANNEL}`)
        })
        // lost between LISTEN and here: nothing to wait for
        if (yield* Deferred.isDone(lost)) return
        listening = client
        // what changed while nobody listened was not told
        generation++
        const heartbeat = Effect.tryPromise(() => client.query("SELECT 1")).pipe(
          Effect.timeoutOrElse({
            duration: HEARTBEAT_TIMEOUT,
            orElse: () => Effect.fail(new Error("no sign of life"))
          }),
          Effect.repeat(Schedule.spaced(`${options.heartbeatMillis ?? 5_000} millis`)),
          // silent: remember nothing from here on, and end the session so that it reconnects
          Effect.tapError(() =>
            Effect.sync(() => {
              if (listening === client) listening = undefined
            })
          )
        )
        yield* Effect.raceFirst(Deferred.await(lost), Effect.asVoid(heartbeat))
      })

    // a connection that was lost is replaced at once; connecting again backs off while it fails; the listener's
    // own waits (backoff, heartbeat, the goodbye's timeout) are real time, whatever Clock the store's user runs
    // on: under a test clock that never moves, closing a store mid-connect would wait forever
    const listener = Effect.provideService(
      Effect.forever(Effect.acquireUseRelease(newClient, session, close).pipe(Effect.retry(RECONNECT))),
      Clock.Clock,
      Clock.Clock.defaultValue()
    )
    const scope = yield* Effect.scope
    const context = yield* Effect.context<never>()
    // started by the first read, not with the store: a store that never authenticates (a `kasko` admin command)
    // has nothing to remember, and opens no connection to listen on
    let started = false

    return Effect.sync(() => {
      if (started) return listening === undefined ? ++generation : generation
      started = true
      // forked from the store's context, not from the first reader's fiber, whose span and annotations it would
      // carry for good; and in the same step as the flag, so that no interruption can fall between the two.
      // runSyncWith would hand the listener its one-off synchronous scheduler for good
      Effect.runForkWith(context)(Effect.forkIn(listener, scope))
      return ++generation
    })
  })
