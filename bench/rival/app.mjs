// The service a competent team would write by hand instead of kasko, from the same libraries: Express 5,
// helmet's defaults, express-rate-limit per subscription key, one pino line per request, express.json with a
// body limit, jose bearer tokens, better-sqlite3. Every endpoint answers as kasko does (spec-conforming JSON).
import express from "express"
import { ipKeyGenerator, rateLimit } from "express-rate-limit"
import helmet from "helmet"
import { randomUUID } from "node:crypto"
import { STATUS_CODES } from "node:http"
import { authentication } from "./auth.mjs"
import { answerOf, awaitingAnswer, eventOf, InvalidRequest, newActivation, newQuote, offerOf } from "./quotes.mjs"

const problem = (response, status, title, detail, extra = {}) =>
  response
    .status(status)
    .type("application/problem+json")
    .send(JSON.stringify({ type: "about:blank", title, status, detail, ...extra }))

/** One pino line per request, written when its answer is. */
const requestLog = (logger) => (request, response, next) => {
  const started = process.hrtime.bigint()
  const requestId = randomUUID()
  response.setHeader("x-request-id", requestId)
  response.on("finish", () =>
    logger.info(
      {
        request_id: requestId,
        method: request.method,
        path: request.originalUrl,
        status: response.statusCode,
        partner_id: response.locals.partnerId,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6
      },
      "request"
    )
  )
  next()
}

/** The Express app, given its store, its token verifier's key and claims, its logger and its public URL. */
export const rivalApp = ({ store, publicKey, issuer, audience, logger, publicUrl, rateLimitPerMinute }) => {
  const authenticate = authentication({ publicKey, issuer, audience, store, problem })
  const app = express()
  app.disable("x-powered-by")
  app.use(requestLog(logger))
  app.use(helmet())
  app.use((_request, response, next) => {
    response.setHeader("cache-control", "no-store")
    next()
  })
  app.use(
    rateLimit({
      windowMs: 60_000,
      limit: rateLimitPerMinute,
      standardHeaders: "draft-6",
      legacyHeaders: false,
      keyGenerator: (request) => request.get("ocp-apim-subscription-key") ?? ipKeyGenerator(request.ip),
      handler: (_request, response) => problem(response, 429, "Too Many Requests", "Try again later.")
    })
  )
  app.use(express.json({ limit: "100kb" }))

  app.post("/insurance/car/offers", authenticate("offers:create"), (request, response) => {
    response.json(offerOf(request.body, publicUrl))
  })

  app.post("/insurance/car/quotes", authenticate("quotes:create"), (request, response) => {
    const now = Date.now()
    const partnerId = response.locals.partnerId
    const content = newQuote(request.body, publicUrl, now)
    const row = {
      quote_id: content.quote_id,
      partner_id: partnerId,
      policy_number: content.policies[0].policy_number,
      product_name: content.product.product_name,
      price_amount: content.price.amount,
      created_at: now,
      quote_json: JSON.stringify(content)
    }
    const answer = awaitingAnswer(content, now)
    store.createQuote(row, eventOf("quote.created", partnerId, content.quote_id, now, answer))
    response.json(answer)
  })

  app.get("/insurance/car/quotes/:id", authenticate("quotes:read"), (request, response) => {
    const row = store.findQuote(request.params.id, response.locals.partnerId)
    const answer = row === undefined ? undefined : answerOf(row, Date.now())
    if (answer === undefined) return problem(response, 404, "Not Found", "No such quote.")
    response.json(answer)
  })

  // spec §4 endpoint 5: 200 with an empty JSON object, the first time and every time after
  app.post("/insurance/car/quotes/:id/activation", authenticate("quotes:activate"), (request, response) => {
    const now = Date.now()
    const { id } = request.params
    const partnerId = response.locals.partnerId
    const row = store.findQuote(id, partnerId)
    if (row === undefined || answerOf(row, now) === undefined)
      return problem(response, 404, "Not Found", "No such quote.")
    const { quoteNumber } = newActivation()
    store.activateQuote(id, partnerId, now, quoteNumber, (activated) =>
      eventOf("quote.activated", partnerId, id, now, answerOf(activated, now))
    )
    response.json({})
  })

  app.use((_request, response) => problem(response, 404, "Not Found", "No such resource."))
  app.use((error, _request, response, _next) => {
    if (error instanceof InvalidRequest)
      return problem(response, 400, "Bad Request", "The request is invalid.", { violations: error.violations })
    if (typeof error.status === "number" && error.status < 500)
      return problem(response, error.status, STATUS_CODES[error.status], error.message)
    logger.error({ err: error }, "request failed")
    problem(response, 500, "Internal Server Error", "Something went wrong.")
  })
  return app
}
