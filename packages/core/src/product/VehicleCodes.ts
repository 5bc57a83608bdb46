/**
 * The coded strings a quote's vehicle carries (spec §2.9). Observed: personbil 01,
 * varevogn 03; privat_person_koersel 01, godstransport 40. The spec does not show
 * the other usages; kasko numbers them 41–43 beside godstransport.
 */
import { Schema } from "effect"
import type { VehicleType, VehicleUsage } from "./Parameters.js"

const VEHICLE_TYPE_CODES = { personbil: "01", varevogn: "03" } as const satisfies Record<VehicleType, string>

const VEHICLE_USAGE_CODES = {
  privat_person_koersel: "01",
  godstransport: "40",
  godstransport_halv_omsaetning: "41",
  godstransport_erhverv: "42",
  "godstransport_privat/erhverv": "43"
} as const satisfies Record<VehicleUsage, string>

export const VehicleTypeCode = Schema.Literals(Object.values(VEHICLE_TYPE_CODES))
export const VehicleUsageCode = Schema.Literals(Object.values(VEHICLE_USAGE_CODES))

export const vehicleTypeCode = (vehicleType: VehicleType) => VEHICLE_TYPE_CODES[vehicleType]
export const vehicleUsageCode = (usage: VehicleUsage) => VEHICLE_USAGE_CODES[usage]
