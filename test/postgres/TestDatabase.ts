/**
 * The PostgreSQL server the PostgreSQL suites use (see
 * `@kasko/store-contracts/postgres`): read once, here, for the suites of this folder.
 */
import { testDatabaseUrl as providedUrl } from "@kasko/store-contracts/postgres"

/** Connection URL of the PostgreSQL server for this run's PostgreSQL suites. */
export const testDatabaseUrl: string = providedUrl()
