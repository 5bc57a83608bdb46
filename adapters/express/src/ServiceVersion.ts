/**
 * The version of kasko a service runs, which `GET /health` answers so that an operator knows what runs: the
 * composition root provides it (`@kasko/server`: its package's version); none unless it does.
 *
 * @module
 */
import { Context } from "effect"

/** The version of kasko the service runs, which `/health` says: none unless the composition root provides it. */
export const ServiceVersion = Context.Reference<string | undefined>("@kasko/express/ServiceVersion", {
  defaultValue: () => undefined
})
