/**
 * JSON text as a person writes it in a file: parsed, or its first syntax error named by line and column in words
 * that do not depend on the JavaScript engine (V8 gives a position for some mistakes and none for others), and
 * every member written twice in one object — `JSON.parse` keeps the last one without a word.
 */
import { Result } from "effect"

/** Where a JSON text is wrong: 1-based line and column, and what is wrong there. */
export interface JsonSyntaxError {
  readonly line: number
  readonly column: number
  readonly message: string
}

/** A member written twice in one object: where the second one is, and its path. */
export interface RepeatedMember {
  readonly path: ReadonlyArray<string | number>
  readonly line: number
  readonly column: number
}

/** A JSON text's value and the members it repeats, or its first syntax error. */
export type ParsedJson = Result.Result<
  { readonly value: unknown; readonly repeated: ReadonlyArray<RepeatedMember> },
  JsonSyntaxError
>

class Stop extends Error {
  constructor(
    readonly offset: number,
    override readonly message: string
  ) {
    super(message)
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"])
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"])
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const WORD = /[A-Za-z0-9_$.+-]+/y

/** What is at an offset, as a message names it. */
const found = (text: string, offset: number): string => {
  if (offset >= text.length) return "the end of the file"
  WORD.lastIndex = offset
  const word = WORD.exec(text)?.[0]
  if (word !== undefined) return `"${word.length > 20 ? `${word.slice(0, 19)}…` : word}"`
  const character = text[offset]!
  if (character === "\n" || character === "\r") return "the end of the line"
  return character === "'" ? `"'"` : `'${character}'`
}

/** Walks the text by JSON's grammar, collecting repeated members; throws Stop at the first mistake. */
const scan = (text: string): Array<{ path: Array<string | number>; offset: number }> => {
  const repeated: Array<{ path: Array<string | number>; offset: number }> = []
  let at = 0
  const skipWhitespace = () => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at++
    if (text[at] === "/" && (text[at + 1] === "/" || text[at + 1] === "*")) throw new Stop(at, "JSON has no comments")
  }
  const string = (): string => {
    const start = at
    at++
    while (at < text.length && text[at] !== '"') {
      const character = text[at]!
      if (character === "\n" || character === "\r") throw new Stop(at, "a string runs past the end of its line")
      if (character < " ") throw new Stop(at, "a string holds a control character: write it as an escape")
      if (character === "\\") {
        const escaped = text[at + 1]
        if (escaped === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) at += 6
        else if (escaped !== undefined && ESCAPES.has(escaped)) at += 2
        else throw new Stop(at, `a string holds an unknown escape, ${text.slice(at, at + 2)}`)
      } else at++
    }
    if (at >= text.length) throw new Stop(start, "a string is not closed")
    at++
    return JSON.parse(text.slice(start, at)) as string
  }
  const value = (path: Array<string | number>): void => {
    skipWhitespace()
    const character = text[at]
    if (character === "{") {
      object(path)
      return
    }
    if (character === "[") {
      array(path)
      return
    }
    if (character === '"') {
      string()
      return
    }
    for (const literal of ["true", "false", "null"]) {
      if (text.startsWith(literal, at) && !/[A-Za-z0-9_]/.test(text[at + literal.length] ?? "")) {
        at += literal.length
        return
      }
    }
    NUMBER.lastIndex = at
    const number = NUMBER.exec(text)?.[0]
    if (number !== undefined && !/[A-Za-z0-9_.]/.test(text[at + number.length] ?? "")) {
      at += number.length
      return
    }
    throw new Stop(at, `expected a value, found ${found(text, at)}`)
  }
  const object = (path: Array<string | number>): void => {
    at++
    const names = new Set<string>()
    skipWhitespace()
    if (text[at] === "}") {
      at++
      return
    }
    for (;;) {
      skipWhitespace()
      if (text[at] !== '"') {
        const trailing = text[at] === "}" && names.size > 0
        throw new Stop(
          at,
          trailing
            ? "a comma before '}': JSON has none after an object's last member"
            : `expected a member's name in double quotes, found ${found(text, at)}`
        )
      }
      const nameAt = at
      const name = string()
      if (names.has(name)) repeated.push({ path: [...path, name], offset: nameAt })
      names.add(name)
      skipWhitespace()
      if (text[at] !== ":") throw new Stop(at, `expected ':' after the member's name, found ${found(text, at)}`)
      at++
      value([...path, name])
      skipWhitespace()
      if (text[at] === "}") {
        at++
        return
      }
      if (text[at] !== ",") throw new Stop(at, `expected ',' or '}' after a member, found ${found(text, at)}`)
      at++
    }
  }
  const array = (path: Array<string | number>): void => {
    at++
    skipWhitespace()
    if (text[at] === "]") {
      at++
      return
    }
    for (let index = 0; ; index++) {
      skipWhitespace()
      if (text[at] === "]" && index > 0)
        throw new Stop(at, "a comma before ']': JSON has none after a list's last item")
      value([...path, index])
      skipWhitespace()
      if (text[at] === "]") {
        at++
        return
      }
      if (text[at] !== ",") throw new Stop(at, `expected ',' or ']' after an item, found ${found(text, at)}`)
      at++
    }
  }
  value([])
  skipWhitespace()
  if (at < text.length) throw new Stop(at, `expected the end of the file after the value, found ${found(text, at)}`)
  return repeated
}

const lineAndColumn = (text: string, offset: number): { line: number; column: number } => {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/)
  return { line: before.length, column: before[before.length - 1]!.length + 1 }
}

/** Parses a JSON text (a leading byte order mark allowed), naming its first mistake's line and column. */
export const parseJsonText = (text: string): ParsedJson => {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text
  try {
    const repeated = scan(body).map(({ path, offset }) => ({ path, ...lineAndColumn(body, offset) }))
    return Result.succeed({ value: JSON.parse(body) as unknown, repeated })
  } catch (error) {
    // the scan and JSON.parse read the same grammar: a SyntaxError past the scan would be the engine's own word
    if (error instanceof Stop) return Result.fail({ ...lineAndColumn(body, error.offset), message: error.message })
    if (error instanceof SyntaxError) return Result.fail({ line: 1, column: 1, message: error.message })
    throw error
  }
}
