/** A product folder checked before it loads: every problem at once, each with its file and JSON path. */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { checkProductFolder } from "../src/product/ProductCheck.js"

const LEASING = "insurance-car-leasing"
const read = (...path: Array<string>) => readFileSync(join(import.meta.dirname, "..", ...path), "utf8")
const productText = read("products", LEASING, "product.json")
const tariffText = read("tariffs", LEASING, "v1.json")

type Json = Record<string, any>

/** The findings of the leasing product's folder after `change` has edited its document and tariff, as lines. */
const findings = (change: (product: Json, tariff: Json) => void, extra: Record<string, string> = {}) => {
  const product = JSON.parse(productText) as Json
  const tariff = JSON.parse(tariffText) as Json
  change(product, tariff)
  const files = new Map([
    ["product.json", JSON.stringify(product, null, 2)],
    ["tariffs/v1.json", JSON.stringify(tariff, null, 2)],
    ...Object.entries(extra)
  ])
  return checkProductFolder(LEASING, files).map(
    (finding) =>
      `${finding.severity} ${finding.file.slice(LEASING.length + 1)}: ${finding.path}${finding.line === undefined ? "" : ` (${finding.line}:${finding.column})`}: ${finding.message}`
  )
}

const parameter = (product: Json, name: string): Json => product["parameters"].find((p: Json) => p["name"] === name)

describe("checking a product folder", () => {
  it("finds nothing in either shipped product beside its shipped tariff", () => {
    for (const name of [LEASING, "insurance-car-standalone"]) {
      const files = new Map([
        ["product.json", read("products", name, "product.json")],
        ["tariffs/v1.json", read("tariffs", name, "v1.json")]
      ])
      expect(checkProductFolder(name, files)).toEqual([])
    }
  })

  it("names what the Schema refuses at its path: an unknown member with the one it was meant to be, a condition by the form it comes closest to", () => {
    expect(
      findings((product) => {
        product["features"][0]["descripton"] = product["features"][0]["description"]
        delete product["features"][0]["description"]
        product["variants"][0]["when"]["all"][1]["operator"] = "equals"
        product["variants"][0]["when"]["all"][2] = {
          fact: "vehicle_usage",
          operator: "in",
          value: "privat_person_koersel"
        }
        product["coverages"]["kasko"]["colour"] = "red"
        product["effective_from"] = "2025-02-30"
      })
    ).toEqual([
      'error product.json: effective_from: must be a date YYYY-MM-DD, got "2025-02-30"',
      'error product.json: features[0].descripton: is not a known member: did you mean "description"?',
      "error product.json: features[0].description: is missing",
      'error product.json: variants[0].when.all[1].operator: Expected "equal" | "notEqual" | "lessThan" | "lessThanInclusive" | "greaterThan" | "greaterThanInclusive", got "equals"',
      'error product.json: variants[0].when.all[2].value: Expected array, got "privat_person_koersel"',
      "error product.json: coverages.kasko.colour: is not a known member (known: title, covers)"
    ])
  })

  it("refuses names given twice: parameters, options, features, variants, quoted names, roles", () => {
    expect(
      findings((product) => {
        product["parameters"].push({ ...parameter(product, "vehicle_price") })
        parameter(product, "vehicle_type")["options"].push({ id: "personbil", title: "Bil" })
        product["features"][1]["name"] = "standard"
        product["variants"][1]["quoted_product_name"] = product["variants"][0]["quoted_product_name"]
        product["party_roles"][2]["role"] = "vehicle_user"
      })
    ).toEqual([
      'error product.json: parameters[9].name: "vehicle_price" is the name of parameters[6] too',
      'error product.json: parameters[2].options[2].id: "personbil" is the id of parameters[2].options[0] too',
      'error product.json: features[1].name: "standard" is the name of features[0] too',
      'error product.json: variants[1].quoted_product_name: "private-insurance-car-leasing" is the quoted_product_name of variants[0] too',
      'error product.json: party_roles[2].role: "vehicle_user" is the role of party_roles[1] too',
      "warning product.json: party_roles: names no parameter for vehicle_owner: the parties in that role are matched with none"
    ])
  })

  it("refuses an enum without options, a number without its range or with it upside down, a default out of it", () => {
    expect(
      findings((product) => {
        delete parameter(product, "vehicle_owner")["options"]
        parameter(product, "vehicle_user")["options"] = []
        delete parameter(product, "vehicle_price")["maximum"]
        Object.assign(parameter(product, "youngest_user_age"), { minimum: 99, maximum: 17 })
        parameter(product, "payments_per_year")["default"] = "2"
        product["parameters"].push({
          name: "seats",
          title: "Sæder",
          type: "number",
          required: false,
          minimum: 1,
          maximum: 9,
          default: "12"
        })
        product["translations"]["en"]["parameters"]["seats"] = { title: "Seats" }
        parameter(product, "youngest_user_birthdate")["default"] = "2001-02-29"
      })
    ).toEqual([
      'error product.json: parameters[0].default: "2" is not one of the options: 1, 12',
      "error product.json: parameters[3].options: an enum parameter has at least one option",
      "error product.json: parameters[4]: an enum parameter lists its options: options is missing",
      "error product.json: parameters[6]: a number parameter has a minimum and a maximum: maximum missing",
      "error product.json: parameters[7].minimum: 99 is above the maximum, 17",
      'error product.json: parameters[8].default: "2001-02-29" is not a date YYYY-MM-DD',
      'error product.json: parameters[9].default: "12" is not a whole number from 1 to 9',
      "error product.json: party_roles[1].parameter: names vehicle_user, whose options are not person and organization",
      "error product.json: party_roles[2].parameter: names vehicle_owner, whose options are not person and organization"
    ])
  })

  it("refuses what the engine would mishandle: payment plans it does not price, optional role, code and price parameters, a name every object has", () => {
    // a payment plan the engine does not price, and role, code and price parameters made optional
    const mishandled = (product: Json) => {
      parameter(product, "payments_per_year")["options"].push({ id: "4", title: 4 })
      parameter(product, "vehicle_user")["required"] = false
      parameter(product, "vehicle_type")["default"] = "personbil"
      parameter(product, "vehicle_price")["required"] = false
    }
    expect(
      findings((product) => {
        mishandled(product)
        product["party_roles"][2]["quoted_only_as"]["kind"] = "firma"
        parameter(product, "vehicle_usage")["options"].push({ id: "constructor", title: "Konstruktør" })
        product["vehicle_codes"]["usage"]["codes"]["constructor"] = "44"
      })
    ).toEqual([
      'error product.json: parameters[5].options[5].id: must not be a name every object has (constructor): it is read as given, got "constructor"',
      'error product.json: party_roles[2].quoted_only_as.kind: Expected "person" | "organization", got "firma"'
    ])
    expect(
      findings((product) => {
        mishandled(product)
        product["party_roles"][2]["quoted_only_as"]["kind"] = "person"
        parameter(product, "vehicle_owner")["options"] = [{ id: "organization", title: "Virksomhed" }]
      })
    ).toEqual([
      'error product.json: parameters[0].options[2].id: "4" is no payment plan the engine prices: 1, 12',
      "error product.json: vehicle_codes.type.parameter: names vehicle_type: a quote's vehicle always has a code, so it is required, without a default",
      "error product.json: party_roles[1].parameter: names vehicle_user: the parties are matched with what a request says, so it is required, without a default",
      "error product.json: party_roles[2].quoted_only_as.kind: person is not an option of vehicle_owner: organization",
      `error tariffs/v1.json: rules[0].event.params.premium: rates a premium on the vehicle's price: the product needs the number parameter vehicle_price, "fact": true, required or with a default`,
      `error tariffs/v1.json: rules[17].event.params.premium: rates a premium on the vehicle's price: the product needs the number parameter vehicle_price, "fact": true, required or with a default`
    ])
  })

  it("tries a variant rule on a number as the engine reads it, a number: an equal comparison can hold", () => {
    expect(
      findings((product) => {
        product["parameters"].push({
          name: "annual_km",
          title: "Kørte km om året",
          type: "number",
          required: true,
          minimum: 1000,
          maximum: 100000
        })
        product["translations"]["en"]["parameters"]["annual_km"] = { title: "Kilometres a year" }
        product["variants"][0]["when"]["all"].push({ fact: "annual_km", operator: "equal", value: 40000 })
      })
    ).toEqual([])
  })

  it("refuses a birth date standing for what is not an age parameter of the product", () => {
    expect(
      findings((product) => {
        parameter(product, "youngest_user_birthdate")["age_of"]["parameter"] = "youngest_user_alder"
        parameter(product, "vehicle_type")["age_of"] = { parameter: "youngest_user_age", who: "the vehicle" }
        parameter(product, "payments_per_year")["age_of"] = { parameter: "vehicle_usage", who: "the payer" }
        product["parameters"].push({
          name: "owner_birthdate",
          title: "Ejers fødselsdato",
          type: "date",
          required: false,
          age_of: { parameter: "vehicle_usage", who: "the owner" }
        })
        product["translations"]["en"]["parameters"]["owner_birthdate"] = { title: "Owner's date of birth" }
      })
    ).toEqual([
      "error product.json: parameters[0].age_of: only a date stands for an age: payments_per_year is enum",
      "error product.json: parameters[2].age_of: only a date stands for an age: vehicle_type is enum",
      'error product.json: parameters[8].age_of.parameter: names no parameter of the product: "youngest_user_alder"',
      "error product.json: parameters[9].age_of.parameter: vehicle_usage is enum: an age is a number"
    ])
  })

  it("refuses a when on the last variant and none on another, variants other than standard then extended, and a product without variants", () => {
    expect(
      findings((product) => {
        const [standard, extended] = product["variants"]
        extended["when"] = standard["when"]
        delete standard["when"]
      })
    ).toEqual([
      "error product.json: variants[0]: only the last variant goes without a when: this one would take every case",
      "error product.json: variants[1].when: the last variant takes the cases no rule takes: it has no when"
    ])
    expect(
      findings((product) => {
        const [standard, extended] = product["variants"]
        product["variants"] = [{ ...extended }, { ...standard }]
      })
    ).toEqual(["error product.json: variants: a product has the variants standard and extended, in that order"])
    // and the usage only the variant rule named is named by no rule now
    expect(findings((product) => (product["variants"] = []))).toEqual([
      "error product.json: variants: a product has at least one variant",
      'warning product.json: parameters[5].options[0].id: no rule of tariffs/v1.json names "privat_person_koersel", though its rules price by vehicle_usage'
    ])
  })

  it("warns of a variant rule comparing with a value no option has, and of a variant no case falls into", () => {
    expect(
      findings((product) => {
        product["variants"][0]["when"]["all"][0]["value"] = "persons"
      })
    ).toEqual([
      'warning product.json: variants[0].when.all[0].value: "persons" is not an option of policy_holder: person, organization',
      "warning product.json: variants[0].when: no case satisfies it (every value of policy_holder, vehicle_user, vehicle_usage tried)"
    ])
    expect(
      findings((product) => {
        product["variants"][0]["when"] = {
          any: [{ fact: "vehicle_price", operator: "greaterThanInclusive", value: 1000 }]
        }
      })
    ).toEqual([
      "warning product.json: variants[1]: no case falls into extended: a rule before it holds for every case (every value of vehicle_price tried)",
      'warning product.json: parameters[5].options[0].id: no rule of tariffs/v1.json names "privat_person_koersel", though its rules price by vehicle_usage'
    ])
  })

  it("refuses a tariff that repeats another's version or its date, and names a member written twice", () => {
    expect(
      findings(() => {}, {
        "tariffs/v1-copy.json": tariffText.replace('"version": "v1"', '"version": "v1",\n  "version": "v1"')
      })
    ).toEqual([
      "error tariffs/v1-copy.json: version (4:3): is written twice in one object: JSON keeps the last and drops the other",
      "error tariffs/v1.json: version: is v1, as in tariffs/v1-copy.json: a version is given once",
      "error tariffs/v1.json: effective_from: is 2025-01-01, as in tariffs/v1-copy.json: one version takes effect on a date"
    ])
  })

  it("decodes a tariff of a product the catalogue does not know, and reads no JSON file outside the layout", () => {
    expect(
      checkProductFolder(
        "insurance-car-fleet",
        new Map([
          [
            "product.json",
            productText.replace(`"product_name": "${LEASING}"`, '"product_name": "insurance-car-fleet"')
          ],
          [
            "tariffs/v1.json",
            tariffText.replace(`"product_name": "${LEASING}"`, '"product_name": "insurance-car-fleet"')
          ],
          ["tariff/v2.json", "{}"]
        ])
      )
    ).toEqual([
      {
        severity: "warning",
        file: "insurance-car-fleet/tariff/v2.json",
        path: "",
        message: "is not read: a product folder holds product.json, versions/<version>.json and tariffs/<version>.json"
      }
    ])
  })
})

describe("checking a product folder holding several versions of its document", () => {
  const version = (change: (product: Json) => void): string => {
    const product = JSON.parse(productText) as Json
    change(product)
    return JSON.stringify(product, null, 2)
  }
  const v2 = (change: (product: Json) => void = () => {}) =>
    version((product) => {
      product["version"] = "v2"
      product["effective_from"] = "2027-01-01"
      change(product)
    })

  it("finds nothing in a second version taking effect on a later date", () => {
    expect(findings(() => {}, { "versions/v2.json": v2() })).toEqual([])
  })

  it("refuses a version or a date given twice, and a version of another product", () => {
    expect(
      findings(() => {}, {
        "versions/again.json": version(() => {}),
        "versions/other.json": v2((product) => {
          product["product_name"] = "insurance-car-standalone"
        })
      })
    ).toEqual([
      "error versions/again.json: version: is v1, as in product.json: a version is given once",
      "error versions/again.json: effective_from: is 2025-01-01, as in product.json: one version takes effect on a date",
      'error versions/other.json: product_name: is "insurance-car-standalone", but the folder is named "insurance-car-leasing": a product\'s folder takes its name'
    ])
  })

  it("refuses a version that gives a quoted product name to the other variant", () => {
    expect(
      findings(() => {}, {
        "versions/v2.json": v2((product) => {
          const [standard, extended] = product["variants"]
          ;[standard["quoted_product_name"], extended["quoted_product_name"]] = [
            extended["quoted_product_name"],
            standard["quoted_product_name"]
          ]
        })
      })
    ).toEqual([
      'error versions/v2.json: variants[0].quoted_product_name: "business-insurance-car-leasing" is the quoted product name of the extended variant in product.json: a quote\'s product name tells its variant apart in every version',
      'error versions/v2.json: variants[1].quoted_product_name: "private-insurance-car-leasing" is the quoted product name of the standard variant in product.json: a quote\'s product name tells its variant apart in every version'
    ])
  })

  it("refuses a tariff taking effect before the product's first version", () => {
    expect(
      findings((product) => {
        product["effective_from"] = "2025-03-01"
      })
    ).toEqual([
      "error tariffs/v1.json: effective_from: is 2025-01-01, before the product's first version takes effect (2025-03-01, product.json): a tariff prices its product once it is sold"
    ])
  })

  it("checks each tariff against the versions in force while it is, naming the version", () => {
    // the second version no longer gives the tariff the youngest driver's age, which tariff v1 prices by
    const withoutAge = v2((product) => {
      delete parameter(product, "youngest_user_age")["fact"]
    })
    expect(findings(() => {}, { "versions/v2.json": withoutAge })).toEqual(
      expect.arrayContaining([
        'error tariffs/v1.json: rules[23].conditions: reads fact "youngest_user_age", which the product does not give its tariff: mark the parameter youngest_user_age "fact": true in versions/v2.json'
      ])
    )
    // a tariff v2 taking over on the same day, no longer reading the age: v1 is never in force with product v2
    const tariff = JSON.parse(tariffText) as Json
    const tariffV2 = {
      ...tariff,
      version: "v2",
      effective_from: "2027-01-01",
      rules: tariff["rules"].filter((rule: Json) => !JSON.stringify(rule["conditions"]).includes("youngest_user_age"))
    }
    expect(
      findings(() => {}, { "versions/v2.json": withoutAge, "tariffs/v2.json": JSON.stringify(tariffV2) }).filter(
        (line) => line.startsWith("error")
      )
    ).toEqual([])
  })
})
