/**
 * Everything of the workbench but the Vega charts of PriceGrid.ts: pricing
 * cases, golden tables, tariff diffs, the linter and worksheet tables. Vega
 * declares no `sideEffects: false`, so a bundler keeps all of it once any
 * export of PriceGrid.ts is imported; this entry lets a browser bundle (the
 * workbench web app) leave it out.
 * @module
 */
export {
  actualPrice,
  formatGoldenTable,
  parseGoldenTable,
  type ExpectedPrice,
  type GoldenCase
} from "./GoldenTable.js"
export { PARAMETER_COLUMNS, parameterColumnsOf } from "./ParameterColumns.js"
export { CaseRejected, priceCase, type PricingCase, type RuleEngine } from "./PricingCase.js"
export { diffReport, diffTariffs, type PriceChange } from "./TariffDiff.js"
export { lintReport, lintTariff, type Finding } from "./TariffLint.js"
export { worksheetTable } from "./WorksheetTable.js"
export { ImpactAccumulator, type ImpactOptions, type ImpactState } from "./ImpactAccumulator.js"
export type {
  BandRow,
  ImpactReport,
  MovedLine,
  Mover,
  RejectionReason,
  SegmentRow,
  TotalsRow
} from "./ImpactReport.js"
export type { CaseOutcome, PricedCase, RejectedCase, UncomparedCase } from "./CaseOutcome.js"
export { DEFAULT_PERCENT_EDGES } from "./ChangeBands.js"
export { SEGMENT_DIMENSIONS, SEGMENT_TITLES, type SegmentDimension } from "./ImpactSegments.js"
export type { ParameterSegmentation } from "./ParameterSegments.js"
export type { CapBounds, Fraction } from "./CapBounds.js"
export * as ReportFigures from "./ReportFigures.js"
export { catalogueOfProducts } from "./ComparisonCatalogue.js"
export {
  comparedProducts,
  defaultPricingDate,
  impactPricer,
  type ComparedProduct,
  type PortfolioRow,
  type TariffComparison
} from "./ImpactPricing.js"
export {
  forEachPortfolioRow,
  headerFields,
  PortfolioFormatError,
  portfolioColumns,
  type PortfolioColumns
} from "./PortfolioCsv.js"
export { CsvFormatError, lineBreaks, wholeRowsEnd } from "./CsvRows.js"
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
  ImpactWorkerSilent,
  portfolioFeed,
  type ImpactFeed,
  type ImpactSend,
  type ImpactWorkerPoolOptions,
  type ImpactWorkerPort,
  type StartImpactWorker
} from "./ImpactWorkerPool.js"
export {
  FACTOR_DENOMINATOR,
  factorText,
  linearFactor,
  solveMonotone,
  targetTotal,
  type FactorSolution,
  type MonotoneProblem
} from "./TargetFactor.js"
export { generatedPortfolioLines, PORTFOLIO_DISTRIBUTIONS, type PortfolioGeneration } from "./PortfolioGenerator.js"
export { ADDED_PRODUCT_DISTRIBUTIONS } from "./ProductDraws.js"
export {
  runImpact,
  type ImpactPass,
  type ImpactResult,
  type ImpactTarget,
  type RunPass,
  type TargetResult
} from "./ImpactRun.js"
export {
  impactCsv,
  impactText,
  TOTALS_CSV_COLUMNS,
  totalsCsvCells,
  unreachableFactorText
} from "./ImpactReportText.js"
