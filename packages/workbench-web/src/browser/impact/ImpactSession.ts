/**
 * The impact view's test, kept by the app rather than the view: the portfolio
 * chosen, the test running (it goes on while another view is shown) with its
 * progress, and how the last test ended — so coming back to the view shows it.
 */
import type { Tariff } from "@kasko/core/actuarial"
import { type ImpactResult, ImpactStopped, ImpactWorkerSilent, PortfolioFormatError } from "@kasko/workbench/browser"
import type { ImpactChoices, ImpactSettings } from "../../model/ImpactSettings.js"
import { IMPACT_RUN } from "../Timing.js"
import { type ImpactProgress, type RunningImpact, startPortfolioImpact } from "./PortfolioImpactRun.js"

/** How the last test ended. */
export type ImpactOutcome =
  | {
      readonly kind: "done"
      readonly result: ImpactResult
      /** The portfolio's file name. */
      readonly file: string
      /** The same test as a command line. */
      readonly command: string
      /** The view's fields it ran with: the result is out of date once they say otherwise. */
      readonly choices: ImpactChoices
      readonly workers: number
      readonly milliseconds: number
    }
  /**
   * A malformed file (`problem` names the line), a test that cannot run (a factor on a coverage NEW lacks)
   * or a web worker that stopped answering (the browser may have killed it for want of memory).
   */
  | { readonly kind: "failed"; readonly file: string; readonly problem: string }
  | { readonly kind: "stopped"; readonly file: string }

export interface ImpactRequest {
  readonly file: File
  readonly old: Tariff.Tariff
  readonly new: Tariff.Tariff
  /** The product documents the page's catalogue adds to the shipped ones (`PortfolioImpactRunOptions.products`). */
  readonly products: ReadonlyArray<unknown>
  readonly settings: ImpactSettings
  readonly command: string
  readonly choices: ImpactChoices
}

/** What the page says of a failed test of the file. */
const problemOf = (error: unknown, file: string): string => {
  // as the command says it: "the portfolio book.csv, line 7: has 3 fields, the header 13"
  if (error instanceof PortfolioFormatError) return `The portfolio ${file}, ${error.message}`
  // the page has no choice of workers: what its user can do is free memory, or test less
  if (error instanceof ImpactWorkerSilent)
    return `The impact test of ${file} could not run: a web worker stopped answering for ${error.seconds} s; the browser may have stopped it for want of memory. Close other tabs and run the test again, or test a smaller file.`
  return `The impact test of ${file} could not run: ${(error as Error).message ?? String(error)}`
}

export class ImpactSession {
  portfolio: File | undefined
  progress: ImpactProgress | undefined
  outcome: ImpactOutcome | undefined
  private running: RunningImpact | undefined
  /** The view shown listens: to each step of progress, and to the end of a test. */
  onProgress: (() => void) | undefined
  onOutcome: (() => void) | undefined

  get isRunning(): boolean {
    return this.running !== undefined
  }

  /** Starts a test, stopping one under way. */
  start(request: ImpactRequest): void {
    this.stop()
    const started = performance.now()
    const running = startPortfolioImpact({
      file: request.file,
      old: [request.old],
      new: [request.new],
      products: request.products,
      pricing_date: request.settings.pricing_date,
      impact: request.settings.impact,
      target: request.settings.target,
      onProgress: (progress) => {
        if (this.running !== running) return
        this.progress = progress
        this.onProgress?.()
      }
    })
    this.running = running
    this.progress = undefined
    this.outcome = undefined
    this.onOutcome?.()
    const file = request.file.name
    running.result.then(
      (result) => {
        if (this.running !== running) return
        performance.measure(IMPACT_RUN, { start: started, end: performance.now() })
        this.finish({
          kind: "done",
          result,
          file,
          command: request.command,
          choices: request.choices,
          workers: this.progress?.workers ?? 1,
          milliseconds: performance.now() - started
        })
      },
      (error: unknown) => {
        if (this.running !== running) return
        this.finish(
          error instanceof ImpactStopped
            ? { kind: "stopped", file }
            : { kind: "failed", file, problem: problemOf(error, file) }
        )
      }
    )
  }

  /** Stops the test under way, if any. */
  stop(): void {
    const running = this.running
    if (running === undefined) return
    running.stop()
  }

  private finish(outcome: ImpactOutcome): void {
    this.running = undefined
    this.progress = undefined
    this.outcome = outcome
    this.onOutcome?.()
  }
}
