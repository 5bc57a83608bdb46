/** Invariants of pricing over generated parameter sets. */
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as QuotingService from "../src/QuotingService.js"
import { driverAge, featureName, parameters, productName, vehiclePrice } from "./arbitraries.js"
import { offerRequest, runAt, tariffs } from "./support.js"

const priceOf = (params: Record<string, string>, product: string, feature: string) =>
  runAt(QuotingService.explainPrice(offerRequest(params, product, feature)), tariffs)

describe("pricing invariants", () => {
  it("charges at least the annual premium over twelve monthly payments", async () => {
    await fc.assert(
      fc.asyncProperty(parameters, productName, featureName, async (params, product, feature) => {
        const worksheet = await priceOf(params, product, feature)
        expect(worksheet.monthly * 12).toBeGreaterThanOrEqual(worksheet.annually)
      }),
      { numRuns: 150 }
    )
  })

  it("never lowers the price when vehicle_price rises", async () => {
    await fc.assert(
      fc.asyncProperty(
        parameters,
        productName,
        featureName,
        vehiclePrice,
        async (params, product, feature, otherPrice) => {
          const [low, high] = [Number(params.vehicle_price), otherPrice].sort((a, b) => a - b) as [number, number]
          const cheaper = await priceOf({ ...params, vehicle_price: String(low) }, product, feature)
          const dearer = await priceOf({ ...params, vehicle_price: String(high) }, product, feature)
          expect(dearer.annual_total_ore).toBeGreaterThanOrEqual(cheaper.annual_total_ore)
          expect(dearer.annually).toBeGreaterThanOrEqual(cheaper.annually)
          expect(dearer.monthly).toBeGreaterThanOrEqual(cheaper.monthly)
        }
      ),
      { numRuns: 150 }
    )
  })

  it("never lowers the price when the youngest driver is younger", async () => {
    await fc.assert(
      fc.asyncProperty(
        parameters,
        productName,
        featureName,
        driverAge,
        driverAge,
        async (params, product, feature, a, b) => {
          const [younger, older] = [a, b].sort((x, y) => x - y) as [number, number]
          const forYounger = await priceOf({ ...params, youngest_user_age: String(younger) }, product, feature)
          const forOlder = await priceOf({ ...params, youngest_user_age: String(older) }, product, feature)
          expect(forYounger.annual_total_ore).toBeGreaterThanOrEqual(forOlder.annual_total_ore)
          expect(forYounger.monthly).toBeGreaterThanOrEqual(forOlder.monthly)
        }
      ),
      { numRuns: 150 }
    )
  })

  it("is deterministic, also when many prices are computed at once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(parameters, productName, featureName), { minLength: 2, maxLength: 20 }),
        async (cases) => {
          const sequential = []
          for (const [params, product, feature] of cases) sequential.push(await priceOf(params, product, feature))
          const concurrent = await runAt(
            Effect.forEach(
              cases,
              ([params, product, feature]) => QuotingService.explainPrice(offerRequest(params, product, feature)),
              {
                concurrency: "unbounded"
              }
            ),
            tariffs
          )
          expect(concurrent).toEqual(sequential)
        }
      ),
      { numRuns: 30 }
    )
  })
})
