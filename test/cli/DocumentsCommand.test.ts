/**
 * `kasko documents …`: the IPID, a stored quote's document and the privacy policy written to a file, the same
 * documents the service serves; what cannot be done exits 1 with a sentence, a wrong command line 2.
 */
import { Examples } from "@kasko/core"
import { runCli } from "@kasko/server"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { pdfLines, skipPoppler } from "../documents/Poppler.js"
import { asPartner, startTestService } from "../http/support.js"
import { temporaryDirectory } from "../support.js"

const directory = temporaryDirectory("kasko-documents-command-")
afterAll(() => directory.remove())

const kasko = async (dataDirectory: string, ...args: Array<string>) => {
  process.env["KASKO_DATA_DIR"] = dataDirectory
  try {
    return await runCli(args)
  } finally {
    delete process.env["KASKO_DATA_DIR"]
  }
}

describe.skipIf(skipPoppler)("kasko documents", () => {
  it("writes a product variant's IPID to a file", async () => {
    const out = join(directory.path, "ipid.pdf")
    const result = await kasko(
      directory.path,
      "documents",
      "ipid",
      "--product",
      "insurance-car-standalone",
      "--variant",
      "extended",
      "--out",
      out
    )
    expect(result.exitCode).toBe(0)
    expect(result.stderr).toMatch(
      /^wrote the IPID of insurance-car-standalone extended to .*ipid\.pdf \(\d+ bytes\)\n$/
    )
    const lines = pdfLines(readFileSync(out))
    expect(lines).toContain("Forsikringsproduktinformation (IPID)")
    expect(lines).toContain("Partnerbilforsikring, standalone – Udvidet, erhverv")
    expect(lines).toContain("Retshjælp Premium 200.000 kr. 2.500 kr.")
  })

  it("writes a stored quote's document, linking where the service would, with the youngest user's age and never the birth date", async () => {
    const dataDirectory = directory.newFile("quotes")
    const service = await startTestService({ dataDirectory })
    // the policy holder's birth date (CPR 0101901234): the document must not let it complete the masked number
    const request = Examples.quoteRequest(Examples.standardParameters({ youngest_user_birthdate: "1990-01-01" }))
    const created = await fetch(`${service.url}/insurance/car/quotes`, {
      method: "POST",
      headers: { ...asPartner("bilhuset"), "content-type": "application/json" },
      body: JSON.stringify(request)
    }).then((answer) => answer.json() as Promise<{ quote_id: string; policies: Array<{ policy_number: string }> }>)
    await service.stop()
    const out = join(directory.path, "tilbud.pdf")
    process.env["KASKO_PUBLIC_URL"] = "https://api.forsikring.example"
    const result = await kasko(
      dataDirectory,
      "documents",
      "quote",
      "--partner",
      "bilhuset",
      "--quote",
      created.quote_id,
      "--out",
      out
    ).finally(() => delete process.env["KASKO_PUBLIC_URL"])
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = pdfLines(readFileSync(out))
    expect(lines).toContain(`Policenummer ${created.policies[0]!.policy_number}`)
    expect(lines).toContain("CPR-nummer xxxxxx-1234")
    const text = lines.join("\n")
    for (const form of ["1990-01-01", "1. januar 1990", "01.01.1990", "010190", "0101901234"])
      expect(text).not.toContain(form)
    expect(lines.some((line) => /^Yngste brugers alder \d+$/.test(line))).toBe(true)
    // each link whole, on a line of its own
    expect(lines).toContain("https://api.forsikring.example/products/insurance-car-leasing/variants/standard/ipid")

    const another = await kasko(
      dataDirectory,
      "documents",
      "quote",
      "--partner",
      "autohuset",
      "--quote",
      created.quote_id,
      "--out",
      out
    )
    expect(another.exitCode).toBe(1)
    expect(another.stderr).toContain(`no quote "${created.quote_id}" of this partner`)
  })

  it("writes the privacy policy", async () => {
    const out = join(directory.path, "privatliv.pdf")
    const result = await kasko(directory.path, "documents", "privacy-policy", "--out", out)
    expect(result.exitCode).toBe(0)
    expect(pdfLines(readFileSync(out))).toContain("Privatlivspolitik")
  })

  it("exits 1 naming an unknown product, not its variant", async () => {
    const unknown = await kasko(
      directory.path,
      "documents",
      "ipid",
      "--product",
      "insurance-boat",
      "--out",
      join(directory.path, "x.pdf")
    )
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toContain('no product named "insurance-boat"')
    expect(unknown.stderr).not.toContain("variant")
  })

  it("exits 1 naming an unknown variant, and 2 with the usage for a missing --out", async () => {
    const unknown = await kasko(
      directory.path,
      "documents",
      "ipid",
      "--variant",
      "premium",
      "--out",
      join(directory.path, "x.pdf")
    )
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toContain('the product "insurance-car-leasing" has no variant "premium"')
    const missing = await kasko(directory.path, "documents", "ipid")
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toContain("Missing required argument: out")
    expect(missing.stderr).toContain("kasko documents ipid")
  })
})
