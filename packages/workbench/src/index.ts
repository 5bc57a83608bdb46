/**
 * `@kasko/workbench`: the actuary's tools — golden tables, rating worksheets as tables, price grids with charts,
 * tariff diffs, the tariff linter and rate impact over a portfolio. `@kasko/workbench/browser` holds the pieces a
 * page may load; this entry adds what only Node, or a page that bundles Vega, may.
 * @module
 */
// everything the browser entry has (pricing cases, golden tables, diffs, lint, the impact's browser-safe pieces),
// and what only Node or a page that bundles Vega may load
export * from "./browser.js"
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
export {
  portfolioImpact,
  type PortfolioImpactOptions,
  type PortfolioSource
} from "./PortfolioImpact.js"
