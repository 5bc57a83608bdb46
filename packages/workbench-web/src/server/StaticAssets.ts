/**
 * The page's files: the browser bundle built ahead of time into
 * `dist/browser` (`pnpm build`), served from a list made when the server
 * starts, so no request path ever reaches the file system.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, extname, join } from "node:path"

export interface Asset {
  readonly contentType: string
  readonly body: Buffer
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon"
}

/** Where `pnpm build` puts the page: this package's `dist/browser`, however the package is run. */
export const DEFAULT_WEB_ROOT = join(
  dirname(createRequire(import.meta.url).resolve("@kasko/workbench-web/package.json")),
  "dist",
  "browser"
)

/** Every file of the web root by its URL path (`/index.html`, `/app.js`, `/chunks/…`); empty when the bundle is not built. */
export const loadAssets = (webRoot: string): ReadonlyMap<string, Asset> => {
  const assets = new Map<string, Asset>()
  if (!existsSync(webRoot)) return assets
  for (const entry of readdirSync(webRoot, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const urlPath = `/${path
      .slice(webRoot.length + 1)
      .split(/[\\/]/)
      .join("/")}`
    const contentType = CONTENT_TYPES[extname(entry.name)]
    if (contentType !== undefined) assets.set(urlPath, { contentType, body: readFileSync(path) })
  }
  return assets
}
