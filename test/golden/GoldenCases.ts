/**
 * The requests of the golden record (issue 44): the two products' definitions, an offer for every point of
 * their parameter grid, quotes through their states, and malformed requests. capture.ts records what the
 * service answers them; GoldenAnswers.test.ts sends them again and compares.
 */
import { Examples } from "@kasko/core"

export interface GoldenRequest {
  readonly method: "GET" | "POST" | "PUT"
  /** `{quote_id of <key>}` in a path stands for the quote_id an earlier case was answered with. */
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** The body exactly as sent. */
  readonly body?: string
  /** When the request is sent, on the service's clock: the record's first instant (`NOW`) when absent. */
  readonly sentAt?: string
}

export interface GoldenCase {
  /** Names the case, its kind first: `product`, `offer`, `bad-offer`, `bad-quote` or `quote`. */
  readonly key: string
  readonly request: GoldenRequest
}

/** A case's kind: the first word of its key. */
export const kindOf = (key: string): string => key.slice(0, key.indexOf(" "))

/** The instant the record is made at: tariff v1 and its charges in force, as in the Examples' answers. */
export const NOW = "2026-03-02T09:00:00.000Z"

const PRODUCTS = ["insurance-car-leasing", "insurance-car-standalone"] as const
const FEATURES = ["standard", "premium"] as const
const PARTY_KINDS = ["person", "organization"] as const
const VEHICLE_USAGES = [
  "privat_person_koersel",
  "godstransport_halv_omsaetning",
  "godstransport",
  "godstransport_erhverv",
  "godstransport_privat/erhverv"
] as const
const VEHICLE_TYPES = ["personbil", "varevogn"] as const
/** `undefined`: the parameter is left out, and its default (1) applies. */
const PAYMENTS_PER_YEAR = [undefined, "1", "12"] as const

/**
 * Vehicle prices: the least and the greatest allowed, and both sides of the tariff's one band edge (kasko's
 * rate changes above 300 000 kr, in both products and both variants).
 */
const VEHICLE_PRICES = ["1000", "300000", "300001", "10000000"] as const

/**
 * The youngest driver: not given, the youngest and the oldest age allowed, 26 (the tariff's 25–27 loading
 * band), and a birth date that makes the driver 21 on NOW's very day (the 21–24 band's first day).
 */
const YOUNGEST_DRIVERS: ReadonlyArray<Readonly<Record<string, string>>> = [
  {},
  { youngest_user_age: "17" },
  { youngest_user_age: "26" },
  { youngest_user_age: "99" },
  { youngest_user_birthdate: "2005-03-02" }
]

const json = (value: unknown): string => JSON.stringify(value)
const JSON_BODY = { "content-type": "application/json" } as const

const post = (path: string, body: unknown, headers: Record<string, string> = {}): GoldenRequest => ({
  method: "POST",
  path,
  headers: { ...JSON_BODY, ...headers },
  body: json(body)
})

const describeParameters = (parameters: Readonly<Record<string, string>>): string =>
  Object.entries(parameters)
    .map(([name, value]) => `${name}=${value}`)
    .join(" ")

/** GET /products/{product_name}: both products, as the specification asks (da-DK) and without a language; an unknown one. */
const productCases = (): Array<GoldenCase> => [
  ...PRODUCTS.map(
    (product): GoldenCase => ({
      key: `product ${product}`,
      request: { method: "GET", path: `/products/${product}`, headers: { "accept-language": "da-DK" } }
    })
  ),
  {
    key: "product insurance-car-leasing without Accept-Language",
    request: { method: "GET", path: "/products/insurance-car-leasing" }
  },
  {
    key: "product insurance-boat (unknown)",
    request: { method: "GET", path: "/products/insurance-boat", headers: { "accept-language": "da-DK" } }
  }
]

/** POST /insurance/car/offers over the whole grid, the youngest driver varying fastest (neighbours differ least). */
const offerCases = (): Array<GoldenCase> => {
  const cases: Array<GoldenCase> = []
  for (const product of PRODUCTS)
    for (const feature of FEATURES)
      for (const policy_holder of PARTY_KINDS)
        for (const vehicle_user of PARTY_KINDS)
          for (const vehicle_owner of PARTY_KINDS)
            for (const vehicle_usage of VEHICLE_USAGES)
              for (const vehicle_type of VEHICLE_TYPES)
                for (const payments_per_year of PAYMENTS_PER_YEAR)
                  for (const vehicle_price of VEHICLE_PRICES)
                    for (const driver of YOUNGEST_DRIVERS) {
                      const parameters = {
                        ...(payments_per_year === undefined ? {} : { payments_per_year }),
                        policy_holder,
                        vehicle_type,
                        vehicle_user,
                        vehicle_owner,
                        vehicle_usage,
                        vehicle_price,
                        ...driver
                      }
                      cases.push({
                        key: `offer ${product} ${feature} ${describeParameters(parameters)}`,
                        request: post("/insurance/car/offers", Examples.offerRequest(parameters, product, feature))
                      })
                    }
  return cases
}

/** The role parameters and usage of the Extended cases quoted: each party kind in each role, and every usage. */
const EXTENDED_SHAPES: ReadonlyArray<Readonly<Record<string, string>>> = [
  { policy_holder: "organization", vehicle_user: "person", vehicle_usage: "privat_person_koersel" },
  { policy_holder: "person", vehicle_user: "organization", vehicle_usage: "godstransport" },
  { policy_holder: "organization", vehicle_user: "organization", vehicle_usage: "godstransport_erhverv" },
  { policy_holder: "person", vehicle_user: "person", vehicle_usage: "godstransport_halv_omsaetning" },
  { policy_holder: "organization", vehicle_user: "organization", vehicle_usage: "godstransport_privat/erhverv" },
  { policy_holder: "person", vehicle_user: "organization", vehicle_usage: "privat_person_koersel" },
  { policy_holder: "organization", vehicle_user: "person", vehicle_usage: "godstransport" },
  { policy_holder: "person", vehicle_user: "person", vehicle_usage: "godstransport_erhverv" }
]

const STANDARD_SHAPE = { policy_holder: "person", vehicle_user: "person", vehicle_usage: "privat_person_koersel" }

const TWO_HOURS = 2 * 60 * 60 * 1000
const THIRTY_DAYS = 30 * 24 * 60 * 60 * 1000
const after = (millis: number): string => new Date(Date.parse(NOW) + millis).toISOString()

/**
 * Quotes of both products, both variants, both features and both payment plans (16), the parties those
 * parameters name (a person, the partner organization): each created, retrieved (by its partner, and by
 * another, who is not shown it), activated — half plainly, half asking for the representation — activated
 * again the other way, retrieved activated, and retrieved once more past its 30 days. A step at a time for
 * all 16, so the clock only moves forward.
 */
const quoteCases = (): Array<GoldenCase> => {
  const quotes: Array<{ name: string; request: unknown; representationFirst: boolean }> = []
  for (const product of PRODUCTS)
    for (const feature of FEATURES)
      for (const payments_per_year of ["1", "12"])
        for (const variant of ["standard", "extended"]) {
          const index = quotes.length
          const parameters = Examples.standardParameters({
            payments_per_year,
            ...(variant === "standard" ? STANDARD_SHAPE : EXTENDED_SHAPES[(index >> 1) % EXTENDED_SHAPES.length]),
            vehicle_type: VEHICLE_TYPES[(index >> 2) % 2]!,
            vehicle_price: ["185000", "300000", "300001", "749990"][index % 4]!,
            ...YOUNGEST_DRIVERS[index % YOUNGEST_DRIVERS.length]
          })
          quotes.push({
            name: `quote ${product} ${variant} ${feature} payments_per_year=${payments_per_year}`,
            request: Examples.quoteRequest(parameters, product, feature),
            representationFirst: index % 2 === 1
          })
        }
  const quotePath = (name: string) => `/insurance/car/quotes/{quote_id of ${name}: create}`
  const activation = (name: string, representation: boolean, sentAt: string): GoldenRequest => ({
    method: "POST",
    path: `${quotePath(name)}/activation`,
    ...(representation ? { headers: { prefer: "return=representation" } } : {}),
    sentAt
  })
  const form = (representation: boolean) => (representation ? "with Prefer: return=representation" : "plainly")
  const steps: ReadonlyArray<(quote: (typeof quotes)[number]) => GoldenCase> = [
    ({ name, request }) => ({ key: `${name}: create`, request: post("/insurance/car/quotes", request) }),
    ({ name }) => ({ key: `${name}: get`, request: { method: "GET", path: quotePath(name) } }),
    ({ name }) => ({
      key: `${name}: get as another partner`,
      request: { method: "GET", path: quotePath(name), headers: { authorization: "Test partner-b" } }
    }),
    ({ name, representationFirst }) => ({
      key: `${name}: activate ${form(representationFirst)}`,
      request: activation(name, representationFirst, after(TWO_HOURS))
    }),
    ({ name, representationFirst }) => ({
      key: `${name}: activate again ${form(!representationFirst)}`,
      request: activation(name, !representationFirst, after(TWO_HOURS + 60_000))
    }),
    ({ name }) => ({
      key: `${name}: get activated`,
      request: { method: "GET", path: quotePath(name), sentAt: after(TWO_HOURS + 120_000) }
    }),
    ({ name }) => ({
      key: `${name}: get past 30 days`,
      request: { method: "GET", path: quotePath(name), sentAt: after(THIRTY_DAYS + 1) }
    })
  ]
  return steps.flatMap((step) => quotes.map(step))
}

/** Offer requests that are refused, or that look it and are not: each named by what is wrong with it. */
const badOfferCases = (): Array<GoldenCase> => {
  const offer = (parameters: Record<string, unknown>, product = "insurance-car-leasing", feature = "standard") =>
    Examples.offerRequest(parameters as Examples.ParameterValues, product, feature)
  const standard = Examples.standardParameters()
  const without = (name: string) => Object.fromEntries(Object.entries(standard).filter(([key]) => key !== name))
  const bodies: ReadonlyArray<readonly [string, unknown]> = [
    ["unknown product", offer(standard, "insurance-boat")],
    ["product name in capitals", offer(standard, "INSURANCE-CAR-LEASING")],
    ["no product name", { product: { parameters: standard, features: [{ name: "standard" }] } }],
    ["unknown policy_holder option", offer({ ...standard, policy_holder: "company" })],
    ["unknown vehicle_type option", offer({ ...standard, vehicle_type: "lastbil" })],
    ["unknown vehicle_usage option", offer({ ...standard, vehicle_usage: "racing" })],
    ["unknown vehicle_owner option", offer({ ...standard, vehicle_owner: "bank" })],
    ["payments_per_year 4", offer({ ...standard, payments_per_year: "4" })],
    ["payments_per_year a number", offer({ ...standard, payments_per_year: 12 })],
    ["vehicle_price below 1000", offer({ ...standard, vehicle_price: "999" })],
    ["vehicle_price above 10000000", offer({ ...standard, vehicle_price: "10000001" })],
    ["vehicle_price with decimals", offer({ ...standard, vehicle_price: "200000.50" })],
    ["vehicle_price negative", offer({ ...standard, vehicle_price: "-200000" })],
    ["vehicle_price in exponent form", offer({ ...standard, vehicle_price: "2e5" })],
    ["vehicle_price with spaces", offer({ ...standard, vehicle_price: "200 000" })],
    ["vehicle_price of 13 digits", offer({ ...standard, vehicle_price: "2000000000000" })],
    ["vehicle_price with leading zeros", offer({ ...standard, vehicle_price: "000200000" })],
    ["vehicle_price a number", offer({ ...standard, vehicle_price: 200000 })],
    ["vehicle_price null", offer({ ...standard, vehicle_price: null })],
    ["youngest_user_age 16", offer({ ...standard, youngest_user_age: "16" })],
    ["youngest_user_age 100", offer({ ...standard, youngest_user_age: "100" })],
    ["youngest_user_age not digits", offer({ ...standard, youngest_user_age: "twenty" })],
    ["youngest_user_age blank", offer({ ...standard, youngest_user_age: "" })],
    ["youngest_user_birthdate not a real date", offer({ ...standard, youngest_user_birthdate: "2005-02-30" })],
    ["youngest_user_birthdate day first", offer({ ...standard, youngest_user_birthdate: "02-03-2005" })],
    ["youngest_user_birthdate making 16", offer({ ...standard, youngest_user_birthdate: "2009-03-03" })],
    ["youngest_user_birthdate making 100", offer({ ...standard, youngest_user_birthdate: "1926-03-02" })],
    [
      "youngest_user_birthdate disagreeing with youngest_user_age",
      offer({ ...standard, youngest_user_age: "22", youngest_user_birthdate: "2005-03-02" })
    ],
    [
      "youngest_user_birthdate agreeing with youngest_user_age",
      offer({ ...standard, youngest_user_age: "21", youngest_user_birthdate: "2005-03-02" })
    ],
    ["no vehicle_price", offer(without("vehicle_price"))],
    ["no policy_holder", offer(without("policy_holder"))],
    ["no vehicle_owner", offer(without("vehicle_owner"))],
    ["no parameters", { product: { product_name: "insurance-car-leasing", features: [{ name: "standard" }] } }],
    ["parameters an array", offer([] as unknown as Record<string, unknown>)],
    [
      "two features",
      { product: { ...offer(standard).product, features: [{ name: "standard" }, { name: "premium" }] } }
    ],
    ["unknown feature", offer(standard, "insurance-car-leasing", "gold")],
    ["no features", { product: { ...offer(standard).product, features: [] } }],
    ["feature name a number", { product: { ...offer(standard).product, features: [{ name: 1 }] } }],
    ["unknown parameter", offer({ ...standard, vehicle_colour: "red" })],
    ["unknown member of the body", { ...offer(standard), customer: { name: "x" } }],
    ["several violations at once", offer({ ...standard, vehicle_price: "12", youngest_user_age: "9" })],
    ["a body that is an array", [offer(standard)]],
    ["a body that is a string", "insurance-car-leasing"]
  ]
  const raw: ReadonlyArray<readonly [string, GoldenRequest]> = [
    ["malformed JSON", { method: "POST", path: "/insurance/car/offers", headers: JSON_BODY, body: '{"product":' }],
    ["no body", { method: "POST", path: "/insurance/car/offers", headers: JSON_BODY }],
    [
      "a body sent as text/plain",
      {
        method: "POST",
        path: "/insurance/car/offers",
        headers: { "content-type": "text/plain" },
        body: json(offer(standard))
      }
    ],
    [
      "PUT instead of POST",
      { method: "PUT", path: "/insurance/car/offers", headers: JSON_BODY, body: json(offer(standard)) }
    ]
  ]
  return [
    ...bodies.map(
      ([name, body]): GoldenCase => ({
        key: `bad-offer ${name}`,
        request: post("/insurance/car/offers", body)
      })
    ),
    ...raw.map(([name, request]): GoldenCase => ({ key: `bad-offer ${name}`, request }))
  ]
}

/** Quote requests that are refused, and quotes asked for that are not there. */
const badQuoteCases = (): Array<GoldenCase> => {
  const valid = Examples.quoteRequest() as any
  const changed = (change: (request: any) => void): unknown => {
    const request = structuredClone(valid)
    change(request)
    return request
  }
  const person = valid.policy.parties[0]
  const organization = valid.policy.parties[1]
  const bodies: ReadonlyArray<readonly [string, unknown]> = [
    ["vehicle_owner person", Examples.quoteRequest(Examples.standardParameters({ vehicle_owner: "person" }))],
    [
      "policy_holder organization, the person party holding the policy",
      changed((request) => {
        request.product.parameters.policy_holder = "organization"
      })
    ],
    [
      "vehicle_user organization, no organization party using the vehicle",
      changed((request) => {
        request.product.parameters.vehicle_user = "organization"
      })
    ],
    [
      "no party using the vehicle",
      changed((request) => {
        request.policy.parties[0].vehicle_user = false
      })
    ],
    [
      "a party with no role",
      changed((request) => {
        request.policy.parties.push({ ...person, policy_holder: false, vehicle_user: false })
      })
    ],
    [
      "a party with neither person nor organization",
      changed((request) => {
        delete request.policy.parties[0].person
      })
    ],
    [
      "no parties",
      changed((request) => {
        request.policy.parties = []
      })
    ],
    [
      "eleven parties",
      changed((request) => {
        request.policy.parties = [...Array(10).fill(organization), person]
      })
    ],
    [
      "no policy",
      changed((request) => {
        delete request.policy
      })
    ],
    [
      "no agent",
      changed((request) => {
        delete request.agent
      })
    ],
    [
      "a CPR number that is no date",
      changed((request) => {
        request.policy.parties[0].person.cpr_number = "3213901234"
      })
    ],
    [
      "a CVR number failing its check",
      changed((request) => {
        request.policy.parties[1].organization.cvr_number = "12345678"
      })
    ],
    [
      "a postal code outside Denmark's",
      changed((request) => {
        request.policy.parties[0].address.postal_code = 99999
      })
    ],
    [
      "expected_effective_at not a real date",
      changed((request) => {
        request.policy.expected_effective_at = "2030-02-30"
      })
    ],
    [
      "vehicle_price out of range and the roles mismatched",
      changed((request) => {
        request.product.parameters.vehicle_price = "999"
        request.product.parameters.vehicle_user = "organization"
      })
    ],
    ["an offer request's body", Examples.offerRequest()],
    [
      "an unknown member of the policy",
      changed((request) => {
        request.policy.colour = "red"
      })
    ]
  ]
  const unknownQuote = "/insurance/car/quotes/0190a000-0000-7000-8000-000000000001"
  const other: ReadonlyArray<readonly [string, GoldenRequest]> = [
    ["get an unknown quote", { method: "GET", path: unknownQuote }],
    ["get a quote id that is no UUID", { method: "GET", path: "/insurance/car/quotes/not-a-quote" }],
    ["activate an unknown quote", { method: "POST", path: `${unknownQuote}/activation` }]
  ]
  return [
    ...bodies.map(
      ([name, body]): GoldenCase => ({
        key: `bad-quote ${name}`,
        request: post("/insurance/car/quotes", body)
      })
    ),
    ...other.map(([name, request]): GoldenCase => ({ key: `bad-quote ${name}`, request }))
  ]
}

/** Every case of the record, in the order they are sent: the service's clock only moves forward. */
export const goldenCases = (): Array<GoldenCase> => [
  ...productCases(),
  ...offerCases(),
  ...badOfferCases(),
  ...badQuoteCases(),
  ...quoteCases()
]
