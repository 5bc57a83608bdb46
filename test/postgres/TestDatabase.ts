/**
 * The PostgreSQL server the PostgreSQL suites use: the one configured by
 * KASKO_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), or,
 * when nothing answers there, the embedded one that TestDatabaseSetup.ts started
 * for the run. Suites read the URL here and nowhere else.
 */
import { inject } from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection URL of the PostgreSQL server this run's PostgreSQL suites use. */
    testDatabaseUrl: string
  }
}

const provided = inject("testDatabaseUrl")
if (typeof provided !== "string") {
  // a suite run outside vitest.config.ts's `postgres` project has no server: fail, never skip
  throw new Error(
    "no test database: run the PostgreSQL suites through vitest.config.ts, whose postgres project provides one"
  )
}

/** Connection URL of the PostgreSQL server for this run's PostgreSQL suites. */
export const testDatabaseUrl: string = provided
