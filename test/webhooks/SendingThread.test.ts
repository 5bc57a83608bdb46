/**
 * The dispatcher's attempts run on a sending thread of their own, off the
 * event loop the service's requests run on. These tests hold what that thread
 * must keep: the service's dispatcher delivers through it, signed as ever; an
 * attempt the thread holds when it dies fails (to be retried), never hangs,
 * and the next attempt starts a new thread; a closed sender starts none, and
 * the thread never keeps the process running.
 */
import { type EventOutbox, Examples, IdGenerator, QuotingService, TariffBook } from "@kasko/core"
import { WebhookAdministration } from "@kasko/core/administration"
import { MemoryQuoteStore } from "@kasko/memory"
import { WebhookDispatcher, makeThreadSender } from "@kasko/webhooks"
import { Fiber, Layer, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Worker } from "node:worker_threads"
import { createServer, type Server, type Socket } from "node:net"
import type { AddressInfo } from "node:net"
import { Webhook } from "standardwebhooks"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { headersOf, type Receiver, startReceiver } from "./Receiver.js"

const LOCAL = { allowInsecure: true, allowPrivateAddresses: true }
const PARTNER = "alice-leasing"
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// prints its port, and appends a line to the file it is given as each POST arrives (its body read), then answers 204
const OUTSIDE_RECEIVER = `
const arrivals = process.argv[1]
const server = require("node:http").createServer((request, response) => {
  request.resume()
  request.on("end", () => {
    require("node:fs").appendFileSync(arrivals, "received\\n")
    response.writeHead(204).end()
  })
})
server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port))
`

const until = async (condition: () => boolean) => {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error("gave up waiting")
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** An endpoint that takes connections and never answers; `connected` resolves at its first connection. */
const startSilentEndpoint = async (): Promise<{
  url: string
  connected: Promise<void>
  close: () => Promise<void>
}> => {
  const sockets: Array<Socket> = []
  let connection = () => {}
  const connected = new Promise<void>((resolve) => {
    connection = resolve
  })
  const server: Server = createServer((socket) => {
    sockets.push(socket)
    connection()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    connected,
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

const deliveryTo = (url: string): EventOutbox.ClaimedDelivery => ({
  delivery_id: "dlv_1",
  subscription_id: "whk_1",
  attempts: 0,
  first_attempt_at: undefined,
  failing_since: undefined,
  url,
  secret: SECRET,
  event: {
    event_id: "evt_Q1_created",
    type: "quote.created" as const,
    partner_id: PARTNER,
    quote_id: "Q1",
    occurred_at: 0,
    payload: JSON.stringify({ id: "evt_Q1_created" })
  }
})

describe("the sending thread", () => {
  let receiver: Receiver
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(() => receiver.close())

  it("carries the service dispatcher's attempts: the event arrives signed, and interrupting stops the thread", async () => {
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)
    )
    const subscription = await runtime.runPromise(
      WebhookAdministration.createSubscription(PARTNER, { url: receiver.url, event_types: ["quote.created"] }, LOCAL)
    )
    const quote = await runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
    const dispatcher = runtime.runFork(WebhookDispatcher.runDispatcher({ owner: "test", policy: LOCAL }))
    await until(() => receiver.received.length === 1)
    await runtime.runPromise(Fiber.interrupt(dispatcher))
    await runtime.dispose()

    const [message] = receiver.received
    expect(new Webhook(subscription.secret).verify(message!.body, headersOf(message!))).toMatchObject({
      quote_id: quote.quote_id
    })
  })

  it("sends the service dispatcher's attempts while the service's own event loop is busy", async () => {
    // a receiver in a process of its own, which writes each delivery's arrival to a file this thread can read
    // while it is held
    const arrivalsDirectory = mkdtempSync(join(tmpdir(), "kasko-sending-thread-"))
    const arrivalsFile = join(arrivalsDirectory, "arrivals")
    writeFileSync(arrivalsFile, "")
    const arrivals = () => readFileSync(arrivalsFile, "utf8").split("\n").filter(Boolean).length
    const outside = spawn(process.execPath, ["-e", OUTSIDE_RECEIVER, arrivalsFile], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    const lines: Array<string> = []
    outside.stdout.setEncoding("utf8").on("data", (text: string) => lines.push(...text.split("\n").filter(Boolean)))
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(MemoryQuoteStore.layer, IdGenerator.layerSequential, TariffBook.shipped)
    )
    const postMessage = Worker.prototype.postMessage
    let dispatcher: Fiber.Fiber<never> | undefined
    try {
      await until(() => lines.length > 0)
      const url = `http://127.0.0.1:${lines[0]!.replace("listening ", "")}/hooks`
      await runtime.runPromise(
        WebhookAdministration.createSubscription(PARTNER, { url, event_types: ["quote.created"] }, LOCAL)
      )
      const createQuote = () => runtime.runPromise(QuotingService.createQuote(PARTNER, Examples.quoteRequest()))
      await createQuote()
      dispatcher = runtime.runFork(WebhookDispatcher.runDispatcher({ owner: "test", policy: LOCAL, pollMillis: 50 }))
      // the first delivery starts the thread: its start is not what this tests
      await until(() => arrivals() === 1)

      // the next attempt handed to the thread, this event loop is held until the delivery has arrived: an attempt
      // made on this thread could not arrive before it is let go (a minute: the test has failed by then)
      let arrivedWhileHeld: boolean | undefined
      Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker["postMessage"]>) {
        postMessage.apply(this, args)
        Worker.prototype.postMessage = postMessage
        const giveUp = Date.now() + 60_000
        while (arrivals() < 2 && Date.now() < giveUp);
        arrivedWhileHeld = arrivals() === 2
      }
      await createQuote()
      await until(() => arrivedWhileHeld !== undefined)
      expect(arrivedWhileHeld).toBe(true)
    } finally {
      Worker.prototype.postMessage = postMessage
      if (dispatcher !== undefined) await runtime.runPromise(Fiber.interrupt(dispatcher))
      outside.kill()
      await runtime.dispose()
      rmSync(arrivalsDirectory, { recursive: true, force: true })
    }
  })

  it("fails the attempts it holds when its thread dies, and the next attempt starts a new thread", async () => {
    const silent = await startSilentEndpoint()
    const sender = makeThreadSender({ timeoutMillis: 60_000, policy: LOCAL, userAgent: "test" })
    // the thread the sender posts to, to end it as a crash would
    const postMessage = Worker.prototype.postMessage
    let thread: Worker | undefined
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker["postMessage"]>) {
      thread = this
      postMessage.apply(this, args)
    }
    try {
      const held = sender.send(deliveryTo(silent.url), Date.now())
      // the attempt has reached the endpoint, and waits there for an answer that never comes
      await silent.connected
      await thread!.terminate()
      expect(await held).toEqual({ delivered: false, error: expect.stringMatching(/sending thread stopped/) })

      expect(await sender.send(deliveryTo(receiver.url), Date.now())).toEqual({ delivered: true, status: 204 })
      expect(receiver.received).toHaveLength(1)
    } finally {
      Worker.prototype.postMessage = postMessage
      await sender.close()
      await silent.close()
    }
  })

  it("once closed, fails later attempts without starting a thread", async () => {
    const sender = makeThreadSender({ timeoutMillis: 60_000, policy: LOCAL, userAgent: "test" })
    expect(await sender.send(deliveryTo(receiver.url), Date.now())).toEqual({ delivered: true, status: 204 })
    await sender.close()
    const started = Worker.prototype.postMessage
    let posted = 0
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker["postMessage"]>) {
      posted += 1
      started.apply(this, args)
    }
    try {
      expect(await sender.send(deliveryTo(receiver.url), Date.now())).toEqual({
        delivered: false,
        error: "the sender is closed"
      })
      expect(posted).toBe(0)
      expect(receiver.received).toHaveLength(1)
    } finally {
      Worker.prototype.postMessage = started
    }
  })

  it("never keeps its process running: a process that made an attempt and never closed the sender ends", async () => {
    // `kasko serve` was seen to stay up after its stop when a thread outlived it (the port's listener had
    // re-referenced it)
    const adapter = new URL("../../adapters/webhooks/dist/src/index.js", import.meta.url).href
    const script = `
      import(${JSON.stringify(adapter)}).then(async ({ makeThreadSender }) => {
        const sender = makeThreadSender({ timeoutMillis: 5000, policy: { allowInsecure: true, allowPrivateAddresses: true }, userAgent: "test" })
        // what keeps a service running is its own (its server): here, a timer until the outcome is in
        const running = setInterval(() => undefined, 1000)
        const outcome = await sender.send(${JSON.stringify(deliveryTo(receiver.url))}, Date.now())
        clearInterval(running)
        console.log(JSON.stringify(outcome))
      })
    `
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let errors = ""
    child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text))
    child.stderr.setEncoding("utf8").on("data", (text: string) => (errors += text))
    const ended = await new Promise<number | string>((resolve) => {
      const deadline = setTimeout(() => {
        child.kill("SIGKILL")
        resolve("still running after 10 s")
      }, 10_000)
      child.on("exit", (code) => {
        clearTimeout(deadline)
        resolve(code ?? "killed")
      })
    })
    expect({ ended, output, errors }).toEqual({
      ended: 0,
      output: `${JSON.stringify({ delivered: true, status: 204 })}\n`,
      errors: ""
    })
  })
})
