export {
  actualPrice,
  formatGoldenTable,
  parseGoldenTable,
  PARAMETER_COLUMNS,
  type ExpectedPrice,
  type GoldenCase
} from "./GoldenTable.js"
export {
  gridChartSvg,
  gridCsv,
  parseAxis,
  priceGrid,
  type ChartCaption,
  type GridAxis,
  type GridCell
} from "./PriceGrid.js"
export { fixedParametersLine, parameterLabel } from "./ParameterLabels.js"
export { CaseRejected, priceCase, type PricingCase, type RuleEngine } from "./PricingCase.js"
export { diffReport, diffTariffs, type PriceChange } from "./TariffDiff.js"
export { lintReport, lintTariff, type Finding } from "./TariffLint.js"
export { worksheetTable } from "./WorksheetTable.js"
