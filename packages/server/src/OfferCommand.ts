/** `kasko offer`: prices an anonymous offer through the core. Definition only; `OfferAction.ts` does the work. */
import type { KaskoCommand } from "./KaskoCommand.js"

export const OFFER_COMMAND: KaskoCommand = {
  command: "offer",
  describe:
    "price an anonymous offer with the shipped tariff, or a product added as files (without --param: a sample leasing car)",
  options: (argv) =>
    argv
      .option("product", {
        type: "string",
        default: "insurance-car-leasing",
        requiresArg: true,
        describe: "the product's name"
      })
      .option("feature", { type: "string", default: "standard", requiresArg: true, describe: "standard or premium" })
      .option("param", {
        type: "string",
        array: true,
        requiresArg: true,
        describe: "a parameter as <name>=<value>; repeat for each"
      })
      .option("explain", {
        type: "boolean",
        default: false,
        describe: "print the rating worksheet behind the price as JSON (kasko price shows it as a table)"
      })
      .option("json", { type: "boolean", default: false, describe: "print the offer as the API answers it (JSON)" })
      .option("products", {
        type: "string",
        requiresArg: true,
        describe:
          "a directory of product folders to price beside the shipped products (as KASKO_PRODUCTS_DIR; kasko products check DIR checks it)"
      })
      .epilogue(`Example, a premium standalone offer:
  kasko offer --product insurance-car-standalone --feature premium \\
    --param policy_holder=person --param vehicle_user=person --param vehicle_owner=organization \\
    --param vehicle_type=personbil --param vehicle_usage=privat_person_koersel --param vehicle_price=350000
and the example van product, added as files:
  kasko offer --products examples/products --product insurance-van-business --feature basis \
    --param policy_holder=organization --param vehicle_type=varevogn --param vehicle_user=person \
    --param vehicle_owner=organization --param vehicle_usage=erhverv_egne_varer --param vehicle_price=320000 \
    --param annual_mileage_km=25000 --param overnight_parking=firmaareal`),
  run: async (argv) => (await import("./OfferAction.js")).priceOffer(argv)
}
