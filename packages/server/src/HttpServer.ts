/**
 * The Node HTTP server in front of the app: how long a client may take to send
 * its headers and its whole request, how long an idle keep-alive connection
 * stays, how many connections are held at once (well below the process's file
 * descriptors) and which one makes room at that limit, how many of them one
 * client address may hold, and problem+json for every request Node refuses
 * before Express sees it — headers too large, malformed HTTP, too slow, an
 * expectation it cannot meet, a tunnel (CONNECT) it does not open.
 */
import { PROBLEMS, type Problem } from "@kasko/express"
import { clientAddressKey } from "@kasko/express/toolkit"
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http"
import { createServer, type Server } from "node:http"
import { readFileSync } from "node:fs"
import type { Socket } from "node:net"
import type { Duplex } from "node:stream"
import type { Logger } from "pino"

export interface ConnectionLimits {
  /** Longest a client may take to send a request's headers. */
  readonly headersTimeoutMillis: number
  /** Longest a client may take to send a whole request, body included. */
  readonly requestTimeoutMillis: number
  /** How long an idle keep-alive connection is kept open. */
  readonly keepAliveTimeoutMillis: number
  /**
   * Connections held at once. At the limit a new connection closes the one that has waited longest with no
   * request in progress; only when every connection has one is the new connection closed instead.
   */
  readonly maxConnections: number
  /** Connections one client address (an IPv6 /56) may hold at once; more from it are closed as they arrive. */
  readonly maxConnectionsPerAddress: number
  /** Peers the per-address limit does not apply to: the trusted proxies, whose connections carry many clients. */
  readonly isTrustedProxy: (address: string) => boolean
}

const MAX_HEADER_BYTES = 16 * 1024
// file descriptors the process keeps for itself: the database, its WAL, logs, outgoing connections
const RESERVED_DESCRIPTORS = 256

/** The soft limit on open files (Linux), or undefined where it cannot be read. */
export const openFilesLimit = (): number | undefined => {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((row) => row.startsWith("Max open files"))
    const soft = Number(line?.split(/\s{2,}/)[1])
    return Number.isSafeInteger(soft) && soft > 0 ? soft : undefined
  } catch {
    return undefined
  }
}

/** The configured connection limit, lowered to stay below the file descriptors the process may open. */
export const connectionsWithin = (configured: number, descriptors: number | undefined = openFilesLimit()): number =>
  descriptors === undefined ? configured : Math.max(1, Math.min(configured, descriptors - RESERVED_DESCRIPTORS))

interface ClientError extends Error {
  readonly code?: string
}

const PROBLEM_OF_CLIENT_ERROR: Readonly<Record<string, Problem>> = {
  HPE_HEADER_OVERFLOW: PROBLEMS.headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: { ...PROBLEMS.requestTimeout, detail: "The request was not received in time." }
}

const rawProblem = (problem: Problem) => {
  const body = JSON.stringify(problem)
  return `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`
}

/**
 * Answers what Node refuses itself as problem+json — unless an answer is
 * already on its way on that connection, or the client has gone — and closes
 * the connection.
 */
const answerClientError =
  (logger: Logger) =>
  (error: ClientError, socket: Duplex & { readonly _httpMessage?: { readonly headersSent?: boolean } }) => {
    const code = error.code ?? "UNKNOWN"
    if (code === "ECONNRESET" || !socket.writable || socket._httpMessage?.headersSent === true) {
      socket.destroy()
      return
    }
    logger.warn({ code }, "refused a request before it reached the app")
    const problem = PROBLEM_OF_CLIENT_ERROR[code] ?? {
      ...PROBLEMS.constraintViolation,
      violations: [{ field: "request", message: "is not valid HTTP" }]
    }
    socket.end(rawProblem(problem), () => socket.destroy())
  }

/** 417 for an `Expect` other than `100-continue`, which Node answers with an empty body of its own. */
const answerExpectation = (_request: IncomingMessage, response: ServerResponse) => {
  const body = JSON.stringify({
    ...PROBLEMS.expectationFailed,
    detail: "The only expectation this service meets is Expect: 100-continue."
  })
  response.writeHead(417, {
    "Content-Type": "application/problem+json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff"
  })
  response.end(body)
}

/** 405 for CONNECT, whose connection Node would reset without a word: this service opens no tunnels. */
const answerConnect = (_request: IncomingMessage, socket: Duplex) => {
  socket.end(
    rawProblem({ ...PROBLEMS.methodNotAllowed, detail: "CONNECT is not served: this service is not a proxy." }),
    () => socket.destroy()
  )
}

// a refused address is logged at most this often: a flood must not flood the log too
const REFUSAL_LOG_INTERVAL_MILLIS = 60_000

/**
 * Closes each connection an address opens beyond its limit, at once, so one address cannot hold the slots
 * (`maxConnections`) every other client needs, whether its connections idle, dribble headers or dribble a
 * body. Counted from accept to close; trusted proxies are exempt.
 */
const limitConnectionsPerAddress = (server: Server, limits: ConnectionLimits, logger: Logger) => {
  const held = new Map<string, number>()
  const lastLogged = new Map<string, number>()
  server.on("connection", (socket) => {
    const peer = socket.remoteAddress ?? ""
    if (limits.isTrustedProxy(peer)) return
    const address = clientAddressKey(peer)
    const count = (held.get(address) ?? 0) + 1
    if (count > limits.maxConnectionsPerAddress) {
      socket.destroy()
      const now = Date.now()
      if (now - (lastLogged.get(address) ?? 0) >= REFUSAL_LOG_INTERVAL_MILLIS) {
        lastLogged.set(address, now)
        if (lastLogged.size > 10_000) lastLogged.clear()
        logger.warn(
          { address, limit: limits.maxConnectionsPerAddress },
          "closed connections over the per-address limit (logged once a minute per address)"
        )
      }
      return
    }
    held.set(address, count)
    socket.once("close", () => {
      const left = (held.get(address) ?? 1) - 1
      if (left === 0) held.delete(address)
      else held.set(address, left)
    })
  })
}

/**
 * Holds at most `maxConnections` at once. At the limit a new connection closes the connection that has
 * waited longest with no request in progress — headers unfinished, or idle between keep-alive requests:
 * the slots a slow client holds for free — and is served in its place; only when every connection has a
 * request in progress (its head received, its answer unfinished) is the new one closed instead. Without
 * this, addresses each within their own limit that reconnect whenever a slot frees keep every slot.
 */
const limitConnections = (server: Server, maxConnections: number, logger: Logger) => {
  // the requests in progress on each open connection
  const open = new Map<Socket, number>()
  // insertion-ordered, so the first has waited longest: a connection is added again each time it starts waiting
  const waiting = new Set<Socket>()
  let lastLogged = 0
  const logOnceAMinute = (message: string) => {
    const now = Date.now()
    if (now - lastLogged < REFUSAL_LOG_INTERVAL_MILLIS) return
    lastLogged = now
    logger.warn({ limit: maxConnections }, `${message} (logged once a minute)`)
  }
  const forget = (socket: Socket) => {
    open.delete(socket)
    waiting.delete(socket)
  }
  server.on("connection", (socket: Socket) => {
    // closed already by the per-address limit
    if (socket.destroyed) return
    if (open.size >= maxConnections) {
      const longestWaiting = waiting.values().next().value
      if (longestWaiting === undefined) {
        socket.destroy()
        logOnceAMinute("closed new connections at the connection limit, every connection having a request in progress")
        return
      }
      forget(longestWaiting)
      longestWaiting.destroy()
      logOnceAMinute("closed the connections waiting longest for a request, to make room at the connection limit")
    }
    open.set(socket, 0)
    waiting.add(socket)
    socket.once("close", () => forget(socket))
  })
  const startRequest = (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    const inProgress = open.get(socket)
    if (inProgress === undefined) return
    open.set(socket, inProgress + 1)
    waiting.delete(socket)
    response.once("close", () => {
      const left = (open.get(socket) ?? 0) - 1
      // forgotten: closed, or closed to make room
      if (left < 0) return
      open.set(socket, left)
      if (left === 0 && !socket.destroyed) waiting.add(socket)
    })
  }
  // before the app's listener, which may answer at once. Node emits one of the two for every request it reads
  // (with no checkContinue or upgrade listener, those come as requests too)
  server.prependListener("request", startRequest)
  server.prependListener("checkExpectation", startRequest)
}

/** An HTTP server for the app with the given limits. */
export const makeHttpServer = (app: RequestListener, limits: ConnectionLimits, logger: Logger): Server => {
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: limits.headersTimeoutMillis,
      requestTimeout: limits.requestTimeoutMillis,
      keepAliveTimeout: limits.keepAliveTimeoutMillis,
      // how often Node looks for connections past their timeouts (30 s by default: too coarse for these limits)
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(limits.headersTimeoutMillis / 4))),
      // a missing Host gets the app's problem+json instead of Node's bare 400
      requireHostHeader: false
    },
    app
  )
  // not Node's server.maxConnections, which closes a new connection before it is seen: at the limit one must make room
  limitConnectionsPerAddress(server, limits, logger)
  limitConnections(server, connectionsWithin(limits.maxConnections), logger)
  server.on("clientError", answerClientError(logger))
  server.on("checkExpectation", answerExpectation)
  server.on("connect", answerConnect)
  return server
}
