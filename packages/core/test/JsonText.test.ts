/** JSON text as a person writes it: its first mistake by line and column, and members written twice. */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { parseJsonText } from "../src/input/JsonText.js"

const mistakeOf = (text: string) => {
  const parsed = parseJsonText(text)
  return Result.isFailure(parsed) ? parsed.failure : undefined
}

describe("a JSON text", () => {
  it("parses to its value, a leading byte order mark allowed", () => {
    const parsed = parseJsonText('\uFEFF{ "a": [1, 2.5e3, -0], "b": { "c": "\\u00e6\\n" }, "d": null }')
    expect(Result.getOrThrow(parsed)).toEqual({
      value: { a: [1, 2500, -0], b: { c: "æ\n" }, d: null },
      repeated: []
    })
  })

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, `expected ',' or '}' after a member, found '"'`],
    ['{\n  "a": 1,\n}', 3, 1, "a comma before '}': JSON has none after an object's last member"],
    ['{ "a": [1, 2,] }', 1, 14, "a comma before ']': JSON has none after a list's last item"],
    ['{ "a": tru }', 1, 8, 'expected a value, found "tru"'],
    ["{ 'a': 1 }", 1, 3, `expected a member's name in double quotes, found "'"`],
    ['{ "a" 1 }', 1, 7, "expected ':' after the member's name, found \"1\""],
    ['{ "a": 01 }', 1, 8, 'expected a value, found "01"'],
    ['{ "a": "b\nc" }', 1, 10, "a string runs past the end of its line"],
    ['{ "a": "\\x" }', 1, 9, "a string holds an unknown escape, \\x"],
    ['{\n  // a note\n  "a": 1\n}', 2, 3, "JSON has no comments"],
    ['{ "a": 1 } }', 1, 12, "expected the end of the file after the value, found '}'"],
    ['{ "a": ', 1, 8, "expected a value, found the end of the file"],
    ["", 1, 1, "expected a value, found the end of the file"]
  ])("names the first mistake of %j by line and column", (text, line, column, message) => {
    expect(mistakeOf(text)).toEqual({ line, column, message })
  })

  it("names each member written twice in one object, where the second one is", () => {
    const parsed = Result.getOrThrow(parseJsonText('{\n  "a": { "b": 1, "b": 2 },\n  "c": [{ "d": 1 }],\n  "a": 3\n}'))
    expect(parsed.value).toEqual({ a: 3, c: [{ d: 1 }] })
    expect(parsed.repeated).toEqual([
      { path: ["a", "b"], line: 2, column: 18 },
      { path: ["a"], line: 4, column: 3 }
    ])
  })
})
