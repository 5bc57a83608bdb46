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
export {
  DEFAULT_PERCENT_EDGES,
  ImpactAccumulator,
  SEGMENT_DIMENSIONS,
  type BandRow,
  type CaseOutcome,
  type ImpactOptions,
  type ImpactReport,
  type ImpactState,
  type MovedLine,
  type Mover,
  type PricedCase,
  type RejectedCase,
  type RejectionReason,
  type SegmentDimension,
  type SegmentRow,
  type TotalsRow,
  type UncomparedCase
} from "./ImpactAccumulator.js"
export {
  comparedProducts,
  defaultPricingDate,
  impactPricer,
  type ComparedProduct,
  type PortfolioRow,
  type TariffComparison
} from "./ImpactPricing.js"
export { impactCsv, impactText } from "./ImpactReportText.js"
export {
  runImpact,
  type ImpactPass,
  type ImpactResult,
  type ImpactTarget,
  type RunPass,
  type TargetResult
} from "./ImpactRun.js"
export {
  forEachPortfolioRow,
  headerFields,
  lineBreaks,
  PortfolioFormatError,
  portfolioColumns,
  wholeRowsEnd,
  type PortfolioColumns
} from "./PortfolioCsv.js"
export {
  portfolioChunks,
  portfolioHeader,
  type PortfolioChunk,
  type PortfolioHeader
} from "./PortfolioChunks.js"
export {
  impactWorkerJob,
  type ImpactWorkerAnswer,
  type ImpactWorkerData,
  type ImpactWorkerMessage
} from "./ImpactWorkerJob.js"
export {
  ImpactStopped,
  ImpactWorkerPool,
  portfolioFeed,
  type ImpactFeed,
  type ImpactSend,
  type ImpactWorkerPort,
  type StartImpactWorker
} from "./ImpactWorkerPool.js"
export { generatedPortfolioLines, PORTFOLIO_DISTRIBUTIONS, type PortfolioGeneration } from "./PortfolioGenerator.js"
export {
  portfolioImpact,
  type PortfolioImpactOptions,
  type PortfolioSource
} from "./PortfolioImpact.js"
export {
  FACTOR_DENOMINATOR,
  factorText,
  linearFactor,
  solveMonotone,
  targetTotal,
  type FactorSolution,
  type MonotoneProblem
} from "./TargetFactor.js"
