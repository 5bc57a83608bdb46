/**
 * `/docs`: Swagger UI, served from the installed swagger-ui-dist package (no
 * CDN), rendering `/openapi.json`.
 */
import express, { type Router } from "express"
// the path only: the package's main module would load the whole Swagger UI bundle into the server
import { createRequire } from "node:module"
import { dirname } from "node:path"

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Partner Car Insurance API — reference</title>
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`

// validatorUrl null: Swagger UI would otherwise send the document to an online validator
const INIT = `window.ui = SwaggerUIBundle({ url: "openapi.json", dom_id: "#swagger-ui", validatorUrl: null, docExpansion: "list", deepLinking: true })\n`

const SWAGGER_UI_DIRECTORY = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

/** The paths of the page and its script (its assets are static files below `/docs/assets/`). */
export const API_REFERENCE_PATHS = ["/docs", "/docs/init.js"] as const

/** The routes of the reference page and its assets. */
export const apiReferencePage = (): Router => {
  const router = express.Router()
  router.get("/docs", (_request, response) => {
    response.type("html").send(PAGE)
  })
  router.get("/docs/init.js", (_request, response) => {
    response.type("application/javascript").send(INIT)
  })
  router.use("/docs/assets", express.static(SWAGGER_UI_DIRECTORY, { index: false, fallthrough: true }))
  return router
}
