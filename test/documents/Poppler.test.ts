/**
 * The first pages the tests render: read by pdftoppm every run, but written into docs/documents only when
 * asked (KASKO_WRITE_DOCUMENT_PICTURES=1), so a test run leaves the committed pictures as they are.
 */
import { QuotingService } from "@kasko/core"
import { PdfDocuments } from "@kasko/documents"
import { Effect } from "effect"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { firstPagePicture, PICTURES, skipPoppler, writesPictures } from "./Poppler.js"

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

describe("the first pages the tests render", () => {
  it("are written into docs/documents only with KASKO_WRITE_DOCUMENT_PICTURES=1", () => {
    expect(writesPictures({})).toBe(false)
    expect(writesPictures({ KASKO_WRITE_DOCUMENT_PICTURES: "0" })).toBe(false)
    expect(writesPictures({ KASKO_WRITE_DOCUMENT_PICTURES: "1" })).toBe(true)
  })

  it.skipIf(skipPoppler || writesPictures())(
    "are rendered, and leave docs/documents as it is, by default",
    async () => {
      const policy = await Effect.runPromise(QuotingService.getPrivacyPolicy.pipe(Effect.provide(PdfDocuments.layer())))
      const before = readdirSync(PICTURES).sort()
      const picture = firstPagePicture(policy.document.bytes, "privacy-policy-picture-test")
      expect(picture.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
      expect(picture.length).toBeGreaterThan(1_000)
      expect(existsSync(join(PICTURES, "privacy-policy-picture-test.png"))).toBe(false)
      expect(readdirSync(PICTURES).sort()).toEqual(before)
    }
  )
})
