/**
 * The reference tariff v1 pinned by hand. Every expected figure is worked out
 * in the comment from the tariff table (DESIGN §3) and docs/tariff-charges.md, never
 * copied from the engine's output. Pricing date 2026-03-02.
 *
 * Table: Standard ansvar personbil 1 800 / varevogn 2 400; kasko 2.0 % ≤ 300 000
 * + 1.2 % above; påkørsel_af_dyr 150; vejhjælp 400; afleveringsforsikring 300
 * (leasing); premium lånebil 350, udvidet_glas 450, udvidet_førerulykke 250.
 * Extended ansvar 2 400 / 3 200; kasko 2.4 % + 1.5 %; friskade 500; premium
 * førerulykke 300, retshjælp 200, redning_i_udlandet 250. Loadings on ansvar and
 * kasko: age <21 +60 %, 21–24 +30 %, 25–27 +10 % (leasing only); usage
 * halv_omsaetning +10 %, godstransport +25 %, erhverv +30 %, privat/erhverv +15 %.
 * Charges: skadesforsikringsafgift 1.1 % of every line but ansvar; statsafgift
 * 42.9 % of ansvar; garantifondsbidrag 40; miljøbidrag 84. monthly = total × 1.05
 * ÷ 12 rounded up; annually = total rounded half up.
 */
import { describe, expect, it } from "vitest"
import * as QuotingService from "../src/QuotingService.js"
import { offerRequest, runAt, standardParameters, tariffs, type Parameters } from "./support.js"

interface Case {
  readonly name: string
  readonly product: "insurance-car-leasing" | "insurance-car-standalone"
  readonly feature: "standard" | "premium"
  readonly parameters: Parameters
  readonly annually: number
  readonly monthly: number
  readonly premiums: Record<string, number>
  readonly charges: Record<string, number>
}

const cases: ReadonlyArray<Case> = [
  {
    // kasko 2 % × 200 000 = 4 000; ansvar 1 800; dyr 150; aflevering 300; vejhjælp 400.
    // skadesforsikringsafgift 1.1 % × (4 000 + 150 + 300 + 400 = 4 850) = 53.35; statsafgift 42.9 % × 1 800 = 772.20.
    // total 4 850 + 1 800 + 772.20 + 53.35 + 40 + 84 = 7 599.55 → 7 600; monthly 7 599.55 × 1.05 ÷ 12 = 664.96 → 665.
    name: "leasing, Standard, standard feature, personbil 200 000, no driver age",
    product: "insurance-car-leasing",
    feature: "standard",
    parameters: standardParameters(),
    annually: 7600,
    monthly: 665,
    premiums: { kasko: 4000, ansvar: 1800, påkørsel_af_dyr: 150, afleveringsforsikring: 300, vejhjælp: 400 },
    charges: { skadesforsikringsafgift: 53.35, statsafgift: 772.2, garantifondsbidrag: 40, miljøbidrag: 84 }
  },
  {
    // kasko 2 % × 300 000 + 1.2 % × 50 000 = 6 000 + 600 = 6 600; age 30: no loading.
    // taxable 6 600 + 150 + 350 + 450 + 250 + 300 + 400 = 8 500 → 93.50; statsafgift 772.20.
    // total 8 500 + 1 800 + 772.20 + 93.50 + 124 = 11 289.70 → 11 290; monthly 11 854.185 ÷ 12 = 987.85 → 988.
    name: "leasing, Standard, premium feature, personbil 350 000, age 30, monthly payments",
    product: "insurance-car-leasing",
    feature: "premium",
    parameters: standardParameters({ vehicle_price: "350000", youngest_user_age: "30", payments_per_year: "12" }),
    annually: 11290,
    monthly: 988,
    premiums: { kasko: 6600, ansvar: 1800, lånebil: 350, udvidet_glas: 450, udvidet_førerulykke: 250 },
    charges: { skadesforsikringsafgift: 93.5, statsafgift: 772.2 }
  },
  {
    // age 19: +60 %. kasko 2 % × 150 000 = 3 000 × 1.6 = 4 800; ansvar varevogn 2 400 × 1.6 = 3 840.
    // taxable 4 800 + 150 + 300 + 400 = 5 650 → 62.15; statsafgift 42.9 % × 3 840 = 1 647.36.
    // total 5 650 + 3 840 + 1 647.36 + 62.15 + 124 = 11 323.51 → 11 324; monthly 11 889.6855 ÷ 12 = 990.81 → 991.
    name: "leasing, Standard, varevogn 150 000, driver 19",
    product: "insurance-car-leasing",
    feature: "standard",
    parameters: standardParameters({ vehicle_type: "varevogn", vehicle_price: "150000", youngest_user_age: "19" }),
    annually: 11324,
    monthly: 991,
    premiums: { kasko: 4800, ansvar: 3840 },
    charges: { skadesforsikringsafgift: 62.15, statsafgift: 1647.36 }
  },
  {
    // age 25: +10 %. kasko 2 % × 300 000 = 6 000 × 1.1 = 6 600; ansvar 1 800 × 1.1 = 1 980.
    // taxable 6 600 + 850 = 7 450 → 81.95; statsafgift 42.9 % × 1 980 = 849.42.
    // total 7 450 + 1 980 + 849.42 + 81.95 + 124 = 10 485.37 → 10 485; monthly 11 009.6385 ÷ 12 = 917.47 → 918.
    name: "leasing, Standard, personbil at the band edge 300 000, driver 25",
    product: "insurance-car-leasing",
    feature: "standard",
    parameters: standardParameters({ vehicle_price: "300000", youngest_user_age: "25" }),
    annually: 10485,
    monthly: 918,
    premiums: { kasko: 6600, ansvar: 1980 },
    charges: { skadesforsikringsafgift: 81.95, statsafgift: 849.42 }
  },
  {
    // age 21: +30 %. kasko 2 000 × 1.3 = 2 600; ansvar 1 800 × 1.3 = 2 340.
    // taxable 2 600 + 150 + 350 + 450 + 250 + 300 + 400 = 4 500 → 49.50; statsafgift 42.9 % × 2 340 = 1 003.86.
    // total 4 500 + 2 340 + 1 003.86 + 49.50 + 124 = 8 017.36 → 8 017; monthly 8 418.228 ÷ 12 = 701.52 → 702.
    name: "leasing, Standard, premium feature, personbil 100 000, driver 21",
    product: "insurance-car-leasing",
    feature: "premium",
    parameters: standardParameters({ vehicle_price: "100000", youngest_user_age: "21" }),
    annually: 8017,
    monthly: 702,
    premiums: { kasko: 2600, ansvar: 2340 },
    charges: { skadesforsikringsafgift: 49.5, statsafgift: 1003.86 }
  },
  {
    // Extended (organization holds the policy). kasko 2.4 % × 300 000 + 1.5 % × 100 000 = 7 200 + 1 500 = 8 700;
    // ansvar 2 400; friskade 500. taxable 9 200 → 101.20; statsafgift 42.9 % × 2 400 = 1 029.60.
    // total 9 200 + 2 400 + 1 029.60 + 101.20 + 124 = 12 854.80 → 12 855; monthly 13 497.54 ÷ 12 = 1 124.795 → 1 125.
    name: "leasing, Extended, standard feature, personbil 400 000",
    product: "insurance-car-leasing",
    feature: "standard",
    parameters: standardParameters({ policy_holder: "organization", vehicle_price: "400000" }),
    annually: 12855,
    monthly: 1125,
    premiums: { kasko: 8700, ansvar: 2400, friskade: 500 },
    charges: { skadesforsikringsafgift: 101.2, statsafgift: 1029.6 }
  },
  {
    // Extended, godstransport +25 %, age 22 +30 %: factor 1.3 × 1.25 = 1.625.
    // kasko 8 700 × 1.625 = 14 137.50; ansvar 2 400 × 1.625 = 3 900; premium 300 + 200 + 250; friskade 500.
    // taxable 14 137.50 + 1 250 = 15 387.50 → 169.2625 → 169.26; statsafgift 42.9 % × 3 900 = 1 673.10.
    // total 15 387.50 + 3 900 + 1 673.10 + 169.26 + 124 = 21 253.86 → 21 254; monthly 22 316.553 ÷ 12 = 1 859.71 → 1 860.
    name: "leasing, Extended, premium feature, godstransport, driver 22",
    product: "insurance-car-leasing",
    feature: "premium",
    parameters: standardParameters({
      policy_holder: "organization",
      vehicle_usage: "godstransport",
      vehicle_price: "400000",
      youngest_user_age: "22"
    }),
    annually: 21254,
    monthly: 1860,
    premiums: {
      kasko: 14137.5,
      ansvar: 3900,
      førerulykke: 300,
      retshjælp: 200,
      redning_i_udlandet: 250,
      friskade: 500
    },
    charges: { skadesforsikringsafgift: 169.26, statsafgift: 1673.1 }
  },
  {
    // Extended (organization uses it), erhverv +30 %, age 27 +10 %: factor 1.3 × 1.1 = 1.43.
    // kasko 2.4 % × 250 000 = 6 000 × 1.43 = 8 580; ansvar varevogn 3 200 × 1.43 = 4 576.
    // taxable 8 580 + 300 + 200 + 250 + 500 = 9 830 → 108.13; statsafgift 42.9 % × 4 576 = 1 963.104 → 1 963.10.
    // total 9 830 + 4 576 + 1 963.10 + 108.13 + 124 = 16 601.23 → 16 601; monthly 17 431.2915 ÷ 12 = 1 452.61 → 1 453.
    name: "leasing, Extended, premium feature, varevogn, godstransport_erhverv, driver 27, monthly payments",
    product: "insurance-car-leasing",
    feature: "premium",
    parameters: standardParameters({
      vehicle_user: "organization",
      vehicle_type: "varevogn",
      vehicle_usage: "godstransport_erhverv",
      vehicle_price: "250000",
      youngest_user_age: "27",
      payments_per_year: "12"
    }),
    annually: 16601,
    monthly: 1453,
    premiums: { kasko: 8580, ansvar: 4576 },
    charges: { skadesforsikringsafgift: 108.13, statsafgift: 1963.1 }
  },
  {
    // Standalone: the driver's age is validated but not priced; no afleveringsforsikring.
    // kasko 4 000; ansvar 1 800; dyr 150; vejhjælp 400. taxable 4 550 → 50.05; statsafgift 772.20.
    // total 4 550 + 1 800 + 772.20 + 50.05 + 124 = 7 296.25 → 7 296; monthly 7 661.0625 ÷ 12 = 638.42 → 639.
    name: "standalone, Standard, standard feature, personbil 200 000, driver 19 not priced",
    product: "insurance-car-standalone",
    feature: "standard",
    parameters: standardParameters({ youngest_user_age: "19" }),
    annually: 7296,
    monthly: 639,
    premiums: { kasko: 4000, ansvar: 1800, påkørsel_af_dyr: 150, vejhjælp: 400 },
    charges: { skadesforsikringsafgift: 50.05, statsafgift: 772.2 }
  },
  {
    // kasko 6 000 + 1.2 % × 200 000 = 8 400; ansvar varevogn 2 400; 150 + 350 + 450 + 250 + 400.
    // taxable 8 400 + 1 600 = 10 000 → 110.00; statsafgift 42.9 % × 2 400 = 1 029.60.
    // total 10 000 + 2 400 + 1 029.60 + 110 + 124 = 13 663.60 → 13 664; monthly 14 346.78 ÷ 12 = 1 195.565 → 1 196.
    name: "standalone, Standard, premium feature, varevogn 500 000",
    product: "insurance-car-standalone",
    feature: "premium",
    parameters: standardParameters({ vehicle_type: "varevogn", vehicle_price: "500000" }),
    annually: 13664,
    monthly: 1196,
    premiums: { kasko: 8400, ansvar: 2400 },
    charges: { skadesforsikringsafgift: 110, statsafgift: 1029.6 }
  },
  {
    // Extended, halv_omsaetning +10 %, minimum price. kasko 2.4 % × 1 000 = 24 × 1.1 = 26.40; ansvar 2 400 × 1.1 = 2 640.
    // taxable 26.40 + 500 = 526.40 → 5.7904 → 5.79; statsafgift 42.9 % × 2 640 = 1 132.56.
    // total 526.40 + 2 640 + 1 132.56 + 5.79 + 124 = 4 428.75 → 4 429; monthly 4 650.1875 ÷ 12 = 387.52 → 388.
    name: "standalone, Extended, standard feature, godstransport_halv_omsaetning, price 1 000",
    product: "insurance-car-standalone",
    feature: "standard",
    parameters: standardParameters({
      policy_holder: "organization",
      vehicle_user: "organization",
      vehicle_usage: "godstransport_halv_omsaetning",
      vehicle_price: "1000"
    }),
    annually: 4429,
    monthly: 388,
    premiums: { kasko: 26.4, ansvar: 2640, friskade: 500 },
    charges: { skadesforsikringsafgift: 5.79, statsafgift: 1132.56 }
  },
  {
    // Extended, privat/erhverv +15 %, maximum price. kasko 7 200 + 1.5 % × 9 700 000 = 152 700 × 1.15 = 175 605;
    // ansvar 2 400 × 1.15 = 2 760. taxable 175 605 + 300 + 200 + 250 + 500 = 176 855 → 1 945.405 → 1 945.41;
    // statsafgift 42.9 % × 2 760 = 1 184.04. total 176 855 + 2 760 + 1 184.04 + 1 945.41 + 124 = 182 868.45 → 182 868;
    // monthly 192 011.8725 ÷ 12 = 16 000.99 → 16 001.
    name: "standalone, Extended, premium feature, godstransport_privat/erhverv, price 10 000 000",
    product: "insurance-car-standalone",
    feature: "premium",
    parameters: standardParameters({ vehicle_usage: "godstransport_privat/erhverv", vehicle_price: "10000000" }),
    annually: 182868,
    monthly: 16001,
    premiums: { kasko: 175605, ansvar: 2760 },
    charges: { skadesforsikringsafgift: 1945.41, statsafgift: 1184.04 }
  },
  {
    // Rounding once after all factors: kasko 2 % × 123 457 = 2 469.14 × 1.3 (age 24) = 3 209.882 → 3 209.88;
    // ansvar 1 800 × 1.3 = 2 340. taxable 3 209.88 + 850 = 4 059.88 → 44.65868 → 44.66; statsafgift 1 003.86.
    // total 4 059.88 + 2 340 + 1 003.86 + 44.66 + 124 = 7 572.40 → 7 572; monthly 7 951.02 ÷ 12 = 662.585 → 663.
    name: "leasing, Standard, odd price 123 457, driver 24",
    product: "insurance-car-leasing",
    feature: "standard",
    parameters: standardParameters({ vehicle_price: "123457", youngest_user_age: "24" }),
    annually: 7572,
    monthly: 663,
    premiums: { kasko: 3209.88, ansvar: 2340 },
    charges: { skadesforsikringsafgift: 44.66, statsafgift: 1003.86 }
  },
  {
    // Birth date 2005-03-03 makes the driver 20 on 2026-03-02 (21 the next day): +60 %.
    // kasko 4 000 × 1.6 = 6 400; ansvar 1 800 × 1.6 = 2 880. taxable 6 400 + 850 = 7 250 → 79.75;
    // statsafgift 42.9 % × 2 880 = 1 235.52. total 7 250 + 2 880 + 1 235.52 + 79.75 + 124 = 11 569.27 → 11 569;
    // monthly 12 147.7335 ÷ 12 = 1 012.31 → 1 013.
    name: "leasing, Standard, driver age from the birth date, the day before a birthday",
    product: "insurance-car-leasing",
    feature: "standard",
    parameters: standardParameters({ youngest_user_birthdate: "2005-03-03" }),
    annually: 11569,
    monthly: 1013,
    premiums: { kasko: 6400, ansvar: 2880 },
    charges: { skadesforsikringsafgift: 79.75, statsafgift: 1235.52 }
  }
]

describe("the reference tariff v1", () => {
  it.each(cases)("prices $name", async (testCase) => {
    const request = offerRequest(testCase.parameters, testCase.product, testCase.feature)
    const worksheet = await runAt(QuotingService.explainPrice(request), tariffs)
    const offer = await runAt(QuotingService.createOffer(request), tariffs)
    expect(offer.price).toEqual({ annually: testCase.annually, monthly: testCase.monthly })
    expect({ annually: worksheet.annually, monthly: worksheet.monthly }).toEqual(offer.price)
    const premiums = Object.fromEntries(worksheet.coverage_lines.map((line) => [line.coverage, line.premium_ore / 100]))
    expect(premiums).toMatchObject(testCase.premiums)
    const charges = Object.fromEntries(worksheet.charge_lines.map((line) => [line.charge, line.amount_ore / 100]))
    expect(charges).toMatchObject(testCase.charges)
    expect(charges).toMatchObject({ garantifondsbidrag: 40, miljøbidrag: 84 })
  })

  it("lists the Standard variant's coverages of the leasing product, with the kasko deductible and the aflevering limit", async () => {
    const offer = await runAt(
      QuotingService.createOffer(offerRequest(standardParameters(), "insurance-car-leasing", "premium")),
      tariffs
    )
    expect(offer.policies[0]!.coverages).toEqual([
      { id: "CL-STD-KASKO", name: "kasko", deductible: 5000 },
      { id: "CL-STD-ANSVAR", name: "ansvar" },
      { id: "CL-STD-DYR", name: "påkørsel_af_dyr" },
      { id: "CL-STD-LAANEBIL", name: "lånebil" },
      { id: "CL-STD-GLAS", name: "udvidet_glas" },
      { id: "CL-STD-FOERERULYKKE", name: "udvidet_førerulykke" },
      { id: "CL-STD-AFLEVERING", name: "afleveringsforsikring", limit: 15000 },
      { id: "CL-STD-VEJHJAELP", name: "vejhjælp" }
    ])
    expect(offer.policies[0]!.ipid_href).toBe("/products/insurance-car-leasing/variants/standard/ipid")
  })

  it("lists statsafgift as a coverage of the Extended variant, with limits and the retshjælp deductible", async () => {
    const request = offerRequest(
      standardParameters({ policy_holder: "organization" }),
      "insurance-car-standalone",
      "premium"
    )
    const offer = await runAt(QuotingService.createOffer(request), tariffs)
    expect(offer.policies[0]!.coverages).toEqual([
      { id: "CS-EXT-FOERERULYKKE", name: "førerulykke", limit: 500000 },
      { id: "CS-EXT-RETSHJAELP", name: "retshjælp", deductible: 2500, limit: 200000 },
      { id: "CS-EXT-REDNING", name: "redning_i_udlandet" },
      { id: "CS-EXT-KASKO", name: "kasko", deductible: 10000 },
      { id: "CS-EXT-FRISKADE", name: "friskade" },
      { id: "CS-EXT-STATSAFGIFT", name: "statsafgift" },
      { id: "CS-EXT-ANSVAR", name: "ansvar" }
    ])
  })

  it("gives the standalone Standard variant no afleveringsforsikring", async () => {
    const offer = await runAt(
      QuotingService.createOffer(offerRequest(standardParameters(), "insurance-car-standalone")),
      tariffs
    )
    expect(offer.policies[0]!.coverages.map((coverage) => coverage.name)).toEqual([
      "kasko",
      "ansvar",
      "påkørsel_af_dyr",
      "vejhjælp"
    ])
  })
})
