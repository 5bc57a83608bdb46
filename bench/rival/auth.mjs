// The rival's credentials: `Authorization: Bearer <JWT>` verified with jose on every request (ES256,
// issuer, audience, expiry; nothing cached), the operation's scope, and the `ocp-apim-subscription-key`
// looked up by its SHA-256, which must belong to the partner the token names.
import { jwtVerify } from "jose"

const BEARER = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/

/** Express middleware per scope: sets `res.locals.partnerId`, or answers 401. */
export const authentication = ({ publicKey, issuer, audience, store, problem }) => {
  const unauthorized = (response, detail) => problem(response, 401, "Unauthorized", detail)
  return (scope) => async (request, response, next) => {
    const token = BEARER.exec(request.get("authorization") ?? "")?.[1]
    if (token === undefined) return unauthorized(response, "A bearer token is required.")
    let payload
    try {
      ;({ payload } = await jwtVerify(token, publicKey, {
        algorithms: ["ES256"],
        issuer,
        audience,
        requiredClaims: ["exp", "sub"]
      }))
    } catch (error) {
      return unauthorized(response, `The token was refused: ${error.code ?? error.message}.`)
    }
    if (typeof payload.scope !== "string" || !payload.scope.split(" ").includes(scope))
      return unauthorized(response, `The token lacks the scope ${scope}.`)
    const key = request.get("ocp-apim-subscription-key")
    const partnerId = key === undefined ? undefined : store.partnerOfKey(key)
    if (partnerId === undefined || partnerId !== payload.sub)
      return unauthorized(response, "The subscription key is unknown or not the token's partner's.")
    response.locals.partnerId = partnerId
    next()
  }
}
