// Records the example product's golden table, examples/products/insurance-van-business-v1.golden.csv: the cases
// below priced by the engine with the folder's tariff v1 (`node test/examples/record-van-golden.mjs`, after a
// build). Record again only when the tariff is meant to price otherwise; the test checks the figures of some rows
// worked by hand, and every row against the reference interpreter.
import { TariffDocuments } from "@kasko/core/actuarial"
import { ProductFolders } from "@kasko/server"
import { actualPrice, formatGoldenTable, priceCase } from "@kasko/workbench"
import { writeFileSync } from "node:fs"
import { join } from "node:path"

const HERE = join(import.meta.dirname, "..", "..", "examples", "products")
const products = ProductFolders.fromDirectory(HERE)
const tariffs = TariffDocuments.decodeTariffs(
  products.tariffDocuments.filter((document) => document.product_name === "insurance-van-business"),
  products.catalogue
)

const base = {
  payments_per_year: "1",
  policy_holder: "organization",
  vehicle_type: "varevogn",
  vehicle_user: "person",
  vehicle_owner: "organization",
  vehicle_usage: "erhverv_egne_varer",
  vehicle_price: "200000",
  annual_mileage_km: "25000",
  overnight_parking: "firmaareal"
}
const cases = [
  ["craft basis, the plainest case", "basis", {}],
  ["craft plus", "plus", {}],
  ["craft basis, paid monthly", "basis", { payments_per_year: "12" }],
  ["craft basis, a van above the first band", "basis", { vehicle_price: "400000" }],
  ["craft basis, at most 15 000 km", "basis", { annual_mileage_km: "15000" }],
  ["craft basis, exactly 40 000 km", "basis", { annual_mileage_km: "40000" }],
  ["transport basis, 40 001 km", "basis", { annual_mileage_km: "40001" }],
  ["transport plus, over 60 000 km", "plus", { annual_mileage_km: "60001" }],
  ["transport basis, goods for others", "basis", { vehicle_usage: "godstransport_for_andre" }],
  ["craft basis, private and business use", "basis", { vehicle_usage: "privat_og_erhverv" }],
  ["craft basis, in a garage", "basis", { overnight_parking: "garage" }],
  ["craft basis, in the street", "basis", { overnight_parking: "gade" }],
  ["craft basis, tools 50 000", "basis", { tools_cover: "50000" }],
  ["craft plus, tools 150 000 in the street", "plus", { tools_cover: "150000", overnight_parking: "gade" }],
  ["craft basis, tools 150 000 in a garage", "basis", { tools_cover: "150000", overnight_parking: "garage" }],
  ["craft basis, driver 24", "basis", { youngest_user_age: "24" }],
  ["craft basis, driver 25", "basis", { youngest_user_age: "25" }],
  ["craft basis, driver born 2003-06-01", "basis", { youngest_user_birthdate: "2003-06-01" }],
  [
    "transport plus, driver 19, street, tools 150 000",
    "plus",
    {
      vehicle_usage: "godstransport_for_andre",
      youngest_user_age: "19",
      overnight_parking: "gade",
      tools_cover: "150000",
      vehicle_price: "650000",
      annual_mileage_km: "90000"
    }
  ],
  ["craft basis, a self-employed holder", "basis", { policy_holder: "person" }],
  ["craft basis, the cheapest van", "basis", { vehicle_price: "10000" }],
  ["transport basis, the dearest van", "basis", { vehicle_price: "2000000", annual_mileage_km: "150000" }]
]

const priced = []
for (const [name, feature, parameters] of cases) {
  const testCase = {
    name,
    product_name: "insurance-van-business",
    feature,
    pricing_date: "2026-06-01",
    parameters: { ...base, ...parameters }
  }
  priced.push({
    ...testCase,
    expected: actualPrice(await priceCase(testCase, tariffs, "compiled", products.catalogue))
  })
}
const file = join(HERE, "insurance-van-business-v1.golden.csv")
writeFileSync(file, formatGoldenTable(priced, products.catalogue))
console.log(`${priced.length} cases written to ${file}`)
