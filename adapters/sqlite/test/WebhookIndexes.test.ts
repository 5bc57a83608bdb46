/**
 * Deleting a webhook subscription deletes its deliveries (ON DELETE CASCADE); SQLite finds them through an
 * index on the child column when there is one, and scans the whole table otherwise — 164 s for 2 000
 * subscriptions over 100 000 deliveries before the index. The plan of the cascade's lookup must use it.
 */
import { SqliteConnection } from "@kasko/sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"

const directory = mkdtempSync(join(tmpdir(), "kasko-webhook-indexes-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

it("finds a subscription's deliveries through an index when the subscription is deleted", () => {
  const database = SqliteConnection.openConnection({ filename: join(directory, "kasko.db"), synchronous: "NORMAL" })
  try {
    const plan = database
      .prepare("EXPLAIN QUERY PLAN DELETE FROM webhook_deliveries WHERE subscription_id = ?")
      .all("whk_1") as Array<{ detail: string }>
    expect(plan.map((step) => step.detail)).toEqual([
      expect.stringMatching(/^SEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_by_subscription/)
    ])
  } finally {
    database.close()
  }
})
