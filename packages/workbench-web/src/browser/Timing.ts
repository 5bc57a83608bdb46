/**
 * The page's own timings, as User Timing entries any tool can read
 * (`performance.getEntriesByName(…)`): the first priced form, and each
 * re-price from the keystroke's event to the updated worksheet.
 */

/** Marked when the script starts, and when the workspace is decoded: where the first load's time goes. */
export const SCRIPT_START = "kasko:script-start"
export const WORKSPACE_LOADED = "kasko:workspace-loaded"
/** Marked when the first priced form is in the page, and again once it has been painted. */
export const FIRST_PRICE = "kasko:first-price"
export const FIRST_PRICE_PAINTED = "kasko:first-price-painted"
/** Measured from an input event's time stamp to the end of the re-price it caused. */
export const REPRICE = "kasko:reprice"
/** Measured from the start of an impact test in the page to its result (every pass). */
export const IMPACT_RUN = "kasko:impact-run"

let firstPriceMarked = false

/** Marks the first priced form (once per page load). */
export const markFirstPrice = (): void => {
  if (firstPriceMarked) return
  firstPriceMarked = true
  performance.mark(FIRST_PRICE)
  // the frame that shows it: after the next animation frame has been painted
  requestAnimationFrame(() => setTimeout(() => performance.mark(FIRST_PRICE_PAINTED), 0))
}

/** Records the time from an input event to now. */
export const measureReprice = (event: Event): void => {
  performance.measure(REPRICE, { start: event.timeStamp, end: performance.now() })
}
