/** The largest movers of one direction, kept as they stream past in a bounded heap. */
import type { Mover } from "./ImpactReport.js"

/** Ranks movers: the larger move first, then the earlier line — a total order, so merges are exact. */
const outranks = (a: Mover, b: Mover): boolean =>
  Math.abs(a.change_ore) !== Math.abs(b.change_ore) ? Math.abs(a.change_ore) > Math.abs(b.change_ore) : a.line < b.line

/** The top N movers of one direction, as a binary min-heap on `outranks` (its root the weakest kept). */
export class MoverHeap {
  readonly entries: Array<Mover> = []
  constructor(private readonly size: number) {}

  /** Whether a mover of this change at this line would be kept. */
  admits(changeOre: number, line: number): boolean {
    if (this.size === 0) return false
    if (this.entries.length < this.size) return true
    const weakest = this.entries[0]!
    return Math.abs(changeOre) !== Math.abs(weakest.change_ore)
      ? Math.abs(changeOre) > Math.abs(weakest.change_ore)
      : line < weakest.line
  }

  offer(mover: Mover): void {
    if (!this.admits(mover.change_ore, mover.line)) return
    const { entries } = this
    if (entries.length < this.size) {
      entries.push(mover)
      this.siftUp(entries.length - 1)
    } else {
      entries[0] = mover
      this.siftDown(0)
    }
  }

  ranked(): Array<Mover> {
    return [...this.entries].sort((a, b) => (outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0))
  }

  private siftUp(start: number): void {
    const { entries } = this
    let index = start
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!outranks(entries[parent]!, entries[index]!)) break
      ;[entries[parent], entries[index]] = [entries[index]!, entries[parent]!]
      index = parent
    }
  }

  private siftDown(start: number): void {
    const { entries } = this
    let index = start
    for (;;) {
      const left = 2 * index + 1
      const right = left + 1
      let weakest = index
      if (left < entries.length && outranks(entries[weakest]!, entries[left]!)) weakest = left
      if (right < entries.length && outranks(entries[weakest]!, entries[right]!)) weakest = right
      if (weakest === index) return
      ;[entries[weakest], entries[index]] = [entries[index]!, entries[weakest]!]
      index = weakest
    }
  }
}
