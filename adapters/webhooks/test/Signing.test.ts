/**
 * A delivery's signature is Standard Webhooks': the specification's own test
 * vector, and the headers a receiver reads.
 */
import { describe, expect, it } from "vitest"
import { signature, signedHeaders } from "../src/WebhookSender.js"

// the test vector the Standard Webhooks reference libraries check themselves against
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
const MESSAGE_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
const TIMESTAMP = 1_614_265_330
const PAYLOAD = '{"test": 2432232314}'

describe("a webhook's signature", () => {
  it("is the Standard Webhooks test vector's", () => {
    expect(signature(SECRET, MESSAGE_ID, TIMESTAMP, PAYLOAD)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
  })

  it("changes with any byte of the payload, the id or the time", () => {
    const signed = signature(SECRET, MESSAGE_ID, TIMESTAMP, PAYLOAD)
    expect(signature(SECRET, MESSAGE_ID, TIMESTAMP, PAYLOAD.replace("2", "3"))).not.toBe(signed)
    expect(signature(SECRET, `${MESSAGE_ID}x`, TIMESTAMP, PAYLOAD)).not.toBe(signed)
    expect(signature(SECRET, MESSAGE_ID, TIMESTAMP + 1, PAYLOAD)).not.toBe(signed)
  })

  it("is sent as webhook-id, webhook-timestamp (seconds) and webhook-signature", () => {
    const headers = signedHeaders(
      { secret: SECRET, event: { event_id: MESSAGE_ID, payload: PAYLOAD } as never },
      TIMESTAMP * 1000 + 999
    )
    expect(headers).toEqual({
      "webhook-id": MESSAGE_ID,
      "webhook-timestamp": String(TIMESTAMP),
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
    })
  })
})
