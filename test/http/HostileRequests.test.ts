/**
 * What an outside attacker sent that once answered 500, reached the body parser
 * before the credentials, or spent a partner's rate limit: malformed
 * percent-encoding, bodies that do not decompress, bytes that are not UTF-8, a
 * missing Host, slow headers and bodies, and floods of bad credentials carrying
 * a victim's subscription key. Every answer is problem+json with the usual
 * security headers; nothing is logged as an error.
 */
import { Examples } from "@kasko/core"
import { request as httpRequest } from "node:http"
import { connect, type Socket } from "node:net"
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { serviceWithPartners } from "./credentials.js"

const service = serviceWithPartners("hostile", ["alice-leasing", "bob-biler"], {
  KASKO_AUTH_FAILURES_PER_MINUTE: "40",
  KASKO_RATE_LIMIT_PER_MINUTE: "30",
  KASKO_HEADERS_TIMEOUT_MS: "600",
  KASKO_BODY_TIMEOUT_MS: "1200",
  // longer than a test may run: a connection closed during one was closed by the service's choice, not idleness
  KASKO_KEEP_ALIVE_TIMEOUT_MS: "600000"
})

const OFFER = "/insurance/car/offers"

interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: any
}

/** An HTTP request from a chosen local address (127.0.0.x), with the body as bytes. */
const send = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
  localAddress = "127.0.0.1"
) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const url = new URL(service.server.url)
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers, localAddress },
      (incoming) => {
        const chunks: Array<Buffer> = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: text === "" ? text : JSON.parse(text)
          })
        })
      }
    )
    outgoing.on("error", reject)
    outgoing.end(body)
  })

/** Raw bytes on a socket; answers everything until the server closes. */
const rawExchange = (bytes: string, keepOpenMillis = 0) =>
  new Promise<{ text: string }>((resolve, reject) => {
    const url = new URL(service.server.url)
    const socket: Socket = connect(Number(url.port), url.hostname, () => {
      if (keepOpenMillis === 0) socket.end(bytes)
      else socket.write(bytes)
    })
    let text = ""
    socket.on("data", (chunk) => (text += String(chunk)))
    socket.on("close", () => resolve({ text }))
    socket.on("error", reject)
  })

const problemOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))

const expectProblem = (answer: RawAnswer, status: number) => {
  expect(answer.status).toBe(status)
  expect(answer.headers["content-type"]).toContain("application/problem+json")
  expect(answer.headers["x-content-type-options"]).toBe("nosniff")
  expect(answer.headers["content-security-policy"]).toContain("default-src 'self'")
  expect(answer.body).toMatchObject({ status, type: expect.stringMatching(/^https:\/\//), title: expect.any(String) })
}

const jsonHeaders = (partner = "alice-leasing") => ({
  ...service.partners[partner]!.headers,
  "content-type": "application/json"
})

const noErrorLogged = () => {
  const errors = service.server.logLines.filter((line) => (line["level"] as number) >= 50)
  expect(errors).toEqual([])
  for (const line of service.server.logLines) expect(JSON.stringify(line)).not.toMatch(/\n\s+at /)
}

describe("malformed percent-encoding in a path", () => {
  it.each([
    ["GET", "/products/%ff"],
    ["GET", "/products/%C0%AE"],
    ["GET", "/insurance/car/quotes/%zz"],
    ["POST", "/insurance/car/quotes/%zz/activation"]
  ])("answers %s %s with 400 naming the path, with or without credentials", async (method, path) => {
    for (const headers of [{}, service.partners["alice-leasing"]!.headers]) {
      const answer = await send(method, path, headers)
      expectProblem(answer, 400)
      expect(answer.body.violations).toEqual([{ field: "path", message: "has malformed percent-encoding" }])
    }
    const warned = service.server.logLines.filter((line) => line["msg"] === "refused a malformed request")
    expect(warned.length).toBeGreaterThan(0)
    expect(warned.every((line) => line["level"] === 40)).toBe(true)
    noErrorLogged()
  })

  it("answers an undecodable path of no operation's method with 400 naming the path, with its request id", async () => {
    const answer = await send("DELETE", "/insurance/car/quotes/%zz", {})
    expectProblem(answer, 400)
    expect(answer.body.violations).toEqual([{ field: "path", message: "has malformed percent-encoding" }])
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("answers a lone % that routes nowhere with 404", async () => {
    expectProblem(await send("GET", "/%", {}), 404)
  })
})

describe("Content-Encoding", () => {
  const offer = Buffer.from(JSON.stringify(Examples.offerRequest()))

  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync]
  ] as const)("prices a %s-compressed body", async (encoding, compress) => {
    const answer = await send("POST", OFFER, { ...jsonHeaders(), "content-encoding": encoding }, compress(offer))
    expect(answer.status).toBe(200)
  })

  it.each(["gzip", "deflate", "br"])(
    "answers a %s body that does not decode with 400 naming the body",
    async (encoding) => {
      const answer = await send(
        "POST",
        OFFER,
        { ...jsonHeaders(), "content-encoding": encoding },
        Buffer.from("certainly not compressed")
      )
      expectProblem(answer, 400)
      expect(answer.body.violations).toEqual([{ field: "body", message: "does not decode with its Content-Encoding" }])
      noErrorLogged()
    }
  )

  it("answers an encoding it does not accept with 415", async () => {
    const answer = await send("POST", OFFER, { ...jsonHeaders(), "content-encoding": "compress" }, offer)
    expectProblem(answer, 415)
    expect(answer.body.detail).toContain("identity, gzip, deflate or br")
  })

  it("counts the size limit after decompression: a small bomb answers 413", async () => {
    const bomb = gzipSync(Buffer.from(`{"product": "${"a".repeat(2_000_000)}"}`))
    expect(bomb.length).toBeLessThan(10_000)
    expectProblem(await send("POST", OFFER, { ...jsonHeaders(), "content-encoding": "gzip" }, bomb), 413)
  })

  it("keeps a keep-alive connection open for the next request after an answer with or without a body", async () => {
    const headers = Object.entries(jsonHeaders())
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")
    const body = JSON.stringify(Examples.offerRequest())
    const requests = [
      `GET /insurance/car/quotes/0190a000-0000-7000-8000-000000000000 HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`,
      `POST ${OFFER} HTTP/1.1\r\nHost: localhost\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      `GET /insurance/car/quotes/0190a000-0000-7000-8000-000000000000 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers}\r\n`
    ]
    const url = new URL(service.server.url)
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(requests.join("")))
      let received = ""
      socket.on("data", (chunk) => (received += String(chunk)))
      socket.on("close", () => resolve(received))
      socket.on("error", reject)
    })
    // three answers on the one connection, the first two keeping it
    expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1])).toEqual(["404", "200", "404"])
    expect([...text.matchAll(/\r\nconnection: (\S+)\r\n/gi)].map((match) => match[1]!.toLowerCase())).toEqual([
      "keep-alive",
      "keep-alive",
      "close"
    ])
  })

  it("closes a keep-alive connection whose body it did not read to the end, saying so, instead of reusing it", async () => {
    const bomb = gzipSync(Buffer.from(`{"product": "${"a".repeat(2_000_000)}"}`))
    const head = Object.entries({ ...jsonHeaders(), "content-encoding": "gzip", "content-length": String(bomb.length) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")
    const url = new URL(service.server.url)
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`POST ${OFFER} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n${head}\r\n`)
        socket.write(bomb)
      })
      let received = ""
      socket.on("data", (chunk) => (received += String(chunk)))
      socket.on("close", () => resolve(received))
      socket.on("error", reject)
    })
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(text).toMatch(/\r\nconnection: close\r\n/i)
    // closed by the service once it answered: its keep-alive timeout is longer than the test may run
  })
})

describe("bytes that are not UTF-8", () => {
  it("answers a body with invalid UTF-8 with 400 naming the body, instead of storing U+FFFD", async () => {
    const body = Buffer.concat([Buffer.from('{"product": "'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])
    const answer = await send("POST", OFFER, jsonHeaders(), body)
    expectProblem(answer, 400)
    expect(answer.body.violations).toEqual([{ field: "body", message: "is not valid UTF-8" }])
  })

  it("answers a charset other than UTF-8 with 415", async () => {
    expectProblem(
      await send("POST", OFFER, { ...jsonHeaders(), "content-type": "application/json; charset=latin1" }, "{}"),
      415
    )
    expectProblem(
      await send("POST", OFFER, { ...jsonHeaders(), "content-type": "application/json; charset=utf-16" }, "{}"),
      415
    )
  })

  it("answers control characters and bidi overrides in a quote's strings with 400 naming the field", async () => {
    const request = Examples.quoteRequest() as any
    request.policy.parties[0].person.first_name = "S\u202Eøren"
    request.agent.user_id = "agent\u0000"
    const answer = await send("POST", "/insurance/car/quotes", jsonHeaders(), JSON.stringify(request))
    expectProblem(answer, 400)
    expect(answer.body.violations.map((violation: { field: string }) => violation.field)).toEqual([
      "policy.parties[0].person.first_name",
      "agent.user_id"
    ])
  })
})

describe("answers Node would give in its own words", () => {
  it("answers an HTTP/1.1 request without Host with 400 problem+json", async () => {
    const { text } = await rawExchange("GET /health HTTP/1.1\r\nConnection: close\r\n\r\n")
    expect(text).toMatch(/^HTTP\/1\.1 400 /)
    expect(text).toContain("application/problem+json")
    expect(problemOf(text)).toMatchObject({ status: 400, violations: [{ field: "Host" }] })
  })

  it("answers an operation's HTTP/1.1 request without Host with 400 problem+json, before its credentials", async () => {
    const { text } = await rawExchange(
      `GET /insurance/car/quotes/${"0".repeat(8)}-0000-7000-8000-${"0".repeat(12)} HTTP/1.1\r\nConnection: close\r\n\r\n`
    )
    expect(text).toMatch(/^HTTP\/1\.1 400 /)
    expect(text).toContain("application/problem+json")
    expect(text.toLowerCase()).toContain("x-request-id:")
    expect(problemOf(text)).toMatchObject({ status: 400, violations: [{ field: "Host" }] })
  })

  it("answers headers that do not arrive within the headers timeout with 408 problem+json and closes", async () => {
    // 600 ms here, where Node's own would be a minute: a test that ran out of time would not see this 408
    const { text } = await rawExchange("GET /health HTTP/1.1\r\nHost: localhost\r\n", 1)
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
    expect(problemOf(text)).toMatchObject({ status: 408, title: "Request Timeout" })
  })

  it("answers a body that does not arrive within the body timeout with 408 problem+json and closes", async () => {
    const alice = service.partners["alice-leasing"]!
    const head = `POST ${OFFER} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\nAuthorization: ${alice.headers["authorization"]}\r\nocp-apim-subscription-key: ${alice.subscriptionKey}\r\n\r\n{"product":`
    const { text } = await rawExchange(head, 1)
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
    expect(problemOf(text)).toMatchObject({ status: 408 })
  })
})

describe("credentials before the body", () => {
  it("answers bad credentials at once, without waiting for a body that never comes", async () => {
    const { text } = await rawExchange(
      `POST ${OFFER} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\nConnection: close\r\nAuthorization: Bearer abc.def.ghi\r\nocp-apim-subscription-key: ${service.partners["bob-biler"]!.subscriptionKey}\r\n\r\n`,
      1
    )
    expect(text).toMatch(/^HTTP\/1\.1 401 /)
    // a 401 after waiting for the body would have been the body timeout's 408: the 401 came before it, not from it
    expect(text).not.toMatch(/HTTP\/1\.1 408/)
  })
})

describe("the rate limits", () => {
  it("never lets a flood of bad tokens carrying a victim's key spend the victim's limit; it limits the flooding address", async () => {
    const victim = service.partners["bob-biler"]!
    const flood = {
      authorization: "Bearer forged.token.value",
      "ocp-apim-subscription-key": victim.subscriptionKey,
      "content-type": "application/json"
    }
    const statuses: Array<number> = []
    for (let attempt = 0; attempt < 60; attempt++)
      statuses.push((await send("POST", OFFER, flood, JSON.stringify(Examples.offerRequest()), "127.0.0.2")).status)
    // 40 failures a minute per address, then 429
    expect(statuses.slice(0, 40).every((status) => status === 401)).toBe(true)
    expect(statuses.slice(40).every((status) => status === 429)).toBe(true)
    // the victim, from its own address, is untouched: its key's count starts at its own first request
    const answer = await send("POST", OFFER, jsonHeaders("bob-biler"), JSON.stringify(Examples.offerRequest()))
    expect(answer.status).toBe(200)
    expect(answer.headers["ratelimit-remaining"]).toBe("29")
  })
})

describe("tokens the service cannot verify", () => {
  it("answers a token whose header names an algorithm the embedded key cannot do (RS256) with 401, counted toward the failure limit, logged below warn", async () => {
    const linesBefore = service.server.logLines.length
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
    const token = `${encode({ alg: "RS256", typ: "JWT" })}.${encode({ sub: "alice-leasing", exp: 9_999_999_999 })}.AAAA`
    const headers = {
      authorization: `Bearer ${token}`,
      "ocp-apim-subscription-key": service.partners["alice-leasing"]!.subscriptionKey,
      "content-type": "application/json"
    }
    const answers: Array<RawAnswer> = []
    for (let attempt = 0; attempt < 45; attempt++)
      answers.push(await send("POST", OFFER, headers, JSON.stringify(Examples.offerRequest()), "127.0.0.3"))
    expectProblem(answers[0]!, 401)
    expect(answers[0]!.headers["www-authenticate"]).toBe(
      'Bearer realm="kasko", error="invalid_token", error_description="the token is signed with an algorithm this service does not accept"'
    )
    // 40 failures a minute per address (this file's limit), then 429 — never a 503 with Retry-After
    expect(answers.map((answer) => answer.status)).toEqual([...Array(40).fill(401), ...Array(5).fill(429)])
    const loud = service.server.logLines.slice(linesBefore).filter((line) => (line["level"] as number) >= 40)
    expect(loud).toEqual([])
  })
})
