import { describe, expect, it } from "vitest"
import { coalesced } from "../src/Coalesced.js"

describe("coalesced", () => {
  it("hands on what was pushed in one turn as one array, and the next turn's as another", async () => {
    const flushed: Array<ReadonlyArray<number>> = []
    const push = coalesced<number>((items) => flushed.push(items))
    push(1)
    push(2)
    push(3)
    expect(flushed).toEqual([])
    await Promise.resolve()
    push(4)
    await Promise.resolve()
    expect(flushed).toEqual([[1, 2, 3], [4]])
  })
})
