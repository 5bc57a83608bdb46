/**
 * Black box: `kasko serve` as a process of its own. The links its offers and quotes answer are followed as a
 * partner's page would follow them, and answer 200 application/pdf — under its public URL and base path. The
 * same data directory served again with the insurer's own documents configured: the offers and the quote
 * stored before link there (the links are computed when a quote answers, not when it was stored), while the
 * quote's document still answers for its partner.
 */
import { Examples } from "@kasko/core"
import { type AddressInfo, createServer } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { addPartner } from "../http/credentials.js"
import { startServiceProcess, temporaryDirectory } from "../support.js"

const directory = temporaryDirectory("kasko-served-documents-")
afterAll(() => directory.remove())

const BASE_PATH = "/partner/car/v1"

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/** Follows a link as a browser would: the answer's status, media type and first bytes. */
const follow = async (link: string) => {
  const answer = await fetch(link)
  const bytes = Buffer.from(await answer.arrayBuffer())
  return { status: answer.status, type: answer.headers.get("content-type"), magic: bytes.subarray(0, 5).toString() }
}

const PDF = { status: 200, type: "application/pdf", magic: "%PDF-" }

describe("kasko serve's documents, followed from its answers", () => {
  it("answer 200 application/pdf at the links of offers and quotes, then the insurer's links once configured", async () => {
    const dataDirectory = `${directory.path}/service`
    const partner = await addPartner(dataDirectory, "bilhuset")
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    const own = await startServiceProcess({
      KASKO_DATA_DIR: dataDirectory,
      PORT: String(port),
      KASKO_PUBLIC_URL: publicUrl,
      KASKO_BASE_PATH: BASE_PATH
    })
    const api = `${own.url}${BASE_PATH}`
    const post = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { ...partner.headers, "content-type": "application/json" },
        body: JSON.stringify(body)
      }).then((answer) => answer.json() as Promise<any>)
    let quoteId: string
    try {
      const offer = await post(api, "/insurance/car/offers", Examples.offerRequest())
      expect(offer.policies[0].ipid_href).toBe(
        `${publicUrl}${BASE_PATH}/products/insurance-car-leasing/variants/standard/ipid`
      )
      expect(offer.privacy.policy_href).toBe(`${publicUrl}${BASE_PATH}/privacy-policy`)
      expect(await follow(offer.policies[0].ipid_href)).toEqual(PDF)
      expect(await follow(offer.privacy.policy_href)).toEqual(PDF)

      const extended = await post(
        api,
        "/insurance/car/quotes",
        Examples.quoteRequest(
          Examples.standardParameters({ policy_holder: "organization", vehicle_user: "organization" }),
          "insurance-car-standalone"
        )
      )
      expect(extended.policies[0].ipid_href).toBe(
        `${publicUrl}${BASE_PATH}/products/insurance-car-standalone/variants/extended/ipid`
      )
      expect(await follow(extended.policies[0].ipid_href)).toEqual(PDF)
      expect(await follow(extended.privacy.policy_href)).toEqual(PDF)
      quoteId = extended.quote_id

      const document = await fetch(`${api}/insurance/car/quotes/${quoteId}/document`, { headers: partner.headers })
      expect(document.status).toBe(200)
      expect(document.headers.get("content-type")).toBe("application/pdf")
      expect(
        Buffer.from(await document.arrayBuffer())
          .subarray(0, 5)
          .toString()
      ).toBe("%PDF-")
    } finally {
      await own.stop()
    }

    const insurers = await startServiceProcess({
      KASKO_DATA_DIR: dataDirectory,
      KASKO_DOCUMENTS_BASE_URL: "https://dokumenter.forsikring.example/kasko/",
      KASKO_PRIVACY_POLICY_URL: "https://forsikring.example/privatlivspolitik"
    })
    try {
      const offer = await post(insurers.url, "/insurance/car/offers", Examples.offerRequest())
      expect(offer.policies[0].ipid_href).toBe(
        "https://dokumenter.forsikring.example/kasko/ipid/insurance-car-leasing-standard.pdf"
      )
      expect(offer.privacy.policy_href).toBe("https://forsikring.example/privatlivspolitik")
      // the quote stored by the first service answers the links configured now
      const stored = (await (
        await fetch(`${insurers.url}/insurance/car/quotes/${quoteId}`, { headers: partner.headers })
      ).json()) as any
      expect(stored.policies[0].ipid_href).toBe(
        "https://dokumenter.forsikring.example/kasko/ipid/insurance-car-standalone-extended.pdf"
      )
      expect(stored.privacy.policy_href).toBe("https://forsikring.example/privatlivspolitik")
      const activation = await fetch(`${insurers.url}/insurance/car/quotes/${quoteId}/activation`, {
        method: "POST",
        headers: partner.headers
      })
      expect(activation.status).toBe(200)
      const activated = (await (
        await fetch(`${insurers.url}/insurance/car/quotes/${quoteId}`, { headers: partner.headers })
      ).json()) as any
      expect(activated.status).toBe("activated")
      expect(activated.polices[0].ipid_href).toBe(stored.policies[0].ipid_href)
      expect(activated.privacy.policy_href).toBe("https://forsikring.example/privatlivspolitik")
      expect(await follow(`${insurers.url}/insurance/car/quotes/${quoteId}/document`)).toMatchObject({ status: 401 })
      const document = await fetch(`${insurers.url}/insurance/car/quotes/${quoteId}/document`, {
        headers: partner.headers
      })
      expect(document.status).toBe(200)
      expect(document.headers.get("content-type")).toBe("application/pdf")
    } finally {
      await insurers.stop()
    }
  }, 60_000)

  it("refuses a documents URL that is not http or https, naming the variable", async () => {
    const refused = await startServiceProcess({
      KASKO_DATA_DIR: `${directory.path}/refused`,
      KASKO_DOCUMENTS_BASE_URL: "ftp://documents.example/"
    }).then(
      () => "started",
      (error: Error) => error.message
    )
    expect(refused).toContain("KASKO_DOCUMENTS_BASE_URL")
    expect(refused).toContain("an http or https URL")
  })
})
