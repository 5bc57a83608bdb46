/**
 * The language an answer is written in (issue 47): chosen from the request's `Accept-Language` by the core's
 * `Language.negotiateLanguage` — Danish unless English weighs more — and said by the answer's `Content-Language`,
 * with `Vary: Accept-Language` for the caches between. Problem answers are in English whatever was asked for: their
 * titles, details and violations have always been English, and Danish answers stay as they were.
 */
import { Language } from "@kasko/core"
import type { IncomingHttpHeaders } from "node:http"

/** The language to answer a request in. */
export const languageOf = (headers: IncomingHttpHeaders): Language.Language =>
  Language.negotiateLanguage(headers["accept-language"])

/** The headers of an answer whose words follow Accept-Language: its language, and that it varies with the header. */
export const languageHeaders = (language: Language.Language): Readonly<Record<string, string>> => ({
  "Content-Language": language,
  Vary: "Accept-Language"
})

/** The language of every problem answer's words: English. */
export const PROBLEM_LANGUAGE: Language.Language = "en"
