/** Proposals among the versions: offered by name, never the version in force. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { IN_FORCE, sampleCase, tariffsFor } from "../src/model/CaseInput.js"
import { proposalKey, tariffVersionOf, versionLabel } from "../src/model/TariffVersion.js"
import { LEASING_V1 } from "./fixtures.js"

const PROPOSAL = readFileSync(
  join(
    import.meta.dirname,
    "..",
    "..",
    "..",
    "examples",
    "actuary-workbench",
    "tariffs",
    "insurance-car-leasing-v2-proposal.json"
  ),
  "utf8"
)
const v1 = tariffVersionOf("insurance-car-leasing/v1.json", LEASING_V1)
const proposal = tariffVersionOf(proposalKey("insurance-car-leasing-v2-proposal.json"), PROPOSAL, true)

describe("a proposal among the versions", () => {
  it("is named as a proposal, apart from the directory's files", () => {
    expect(proposal.key).toBe("insurance-car-leasing-v2-proposal.json (proposal)")
    expect(versionLabel(proposal)).toBe("insurance-car-leasing v2-proposal (from 2027-01-01, a proposal)")
    expect(versionLabel(v1)).toBe("insurance-car-leasing v1 (from 2025-01-01)")
  })

  it("never prices as the version in force, even on a date after it takes effect", () => {
    const input = { ...sampleCase("2027-06-01"), tariff: IN_FORCE }
    expect(tariffsFor(input, [v1, proposal], undefined).map((tariff) => tariff.version)).toEqual(["v1"])
  })

  it("prices when chosen", () => {
    const input = { ...sampleCase("2027-06-01"), tariff: proposal.key }
    expect(tariffsFor(input, [v1, proposal], undefined).map((tariff) => tariff.version)).toEqual(["v2-proposal"])
  })
})
