/**
 * The local server of `kasko workbench`: the page and its bundle, the
 * workspace (tariff files and golden tables of the directory, and the product
 * folders of a products directory) and saving a new version of a tariff or of
 * a product. Pricing happens in the page; the server never prices.
 * It binds 127.0.0.1 by default and, bound to loopback, answers only
 * requests addressed to a loopback name (no DNS rebinding) and saves only
 * from its own page's origin (no cross-site request can write a file).
 */
import { Schema } from "effect"
import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { ProductFolder } from "../model/ProductFolders.js"
import { SaveAnswer, WorkspaceDocument } from "../model/WorkspaceDocument.js"
import { saveProductVersion } from "./ProductVersionSaving.js"
import { DEFAULT_WEB_ROOT, loadAssets } from "./StaticAssets.js"
import { readGoldenTables, readProposalFiles, readTariffFiles } from "./TariffDirectory.js"
import type { SaveOutcome } from "./VersionFiles.js"
import { saveTariffVersion } from "./VersionSaving.js"

/** Products added as files (`kasko workbench --products DIR`): where, and how their folders are read. */
export interface WorkbenchProducts {
  /**
   * The directory of product folders: saving writes a product's new version there, `<product>/versions/<version>.json`,
   * and a new tariff version of one of its products, `<product>/tariffs/<version>.json`.
   */
  readonly directory: string
  /**
   * Its product folders as read now, each with its JSON files by their path in it — read as the service reads them
   * (`kasko workbench` passes `readProductFolders` of `@kasko/server`), on every load of the page and every save.
   */
  readonly readFolders: () => ReadonlyArray<ProductFolder>
}

/** What `startWorkbenchServer` serves: the tariff directory, proposals, golden tables, products, and where it listens. */
export interface WorkbenchServerOptions {
  /** The directory of tariff versions the page works on and saves to. */
  readonly tariffDirectory: string
  /** Proposed tariff versions besides the directory's (JSON files or directories of them): offered, never in force, never written. */
  readonly proposalPaths?: ReadonlyArray<string>
  /** Golden tables besides the CSV files in the tariff directory: CSV files or directories of them. */
  readonly goldenPaths?: ReadonlyArray<string>
  /**
   * Products added as files, priced in the page beside the shipped ones and edited there; their tariffs and the CSV
   * files of their directory (golden tables) are the page's too. Without them the product editor says it needs them.
   */
  readonly products?: WorkbenchProducts
  /** Default 127.0.0.1. */
  readonly host?: string
  /** Default 0: a free port. */
  readonly port?: number
  /** The date the save rule and the page's default pricing date use; the clock's by default. */
  readonly today?: () => string
  /** Lets a saved new version take effect before today (it reprices retroactively); refused by default. */
  readonly allowBackdated?: boolean
  /** The built page; this package's `dist/browser` by default. */
  readonly webRoot?: string
}

/** A workbench server listening: its address, and how to stop it. */
export interface RunningWorkbench {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** Stops accepting connections and closes the open ones. */
  readonly stop: () => Promise<void>
}

const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"])

/**
 * The page loads nothing from elsewhere (no CDN: it works offline). Styles
 * come from the stylesheet, plus the editor's, which CodeMirror injects as
 * style elements carrying the page's nonce.
 */
const contentSecurityPolicy = (nonce: string | undefined) =>
  `default-src 'self'; script-src 'self'; style-src 'self'${nonce === undefined ? "" : ` 'nonce-${nonce}'`}; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'`

/** Where index.html names the nonce for the page's script to hand to CodeMirror. */
const NONCE_PLACEHOLDER = "__CSP_NONCE__"

const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin"
} as const

const todayByTheClock = () => new Date().toISOString().slice(0, 10)

const answer = (
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  cache = "no-store",
  nonce?: string
) => {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Security-Policy": contentSecurityPolicy(nonce),
    "Content-Type": contentType,
    "Cache-Control": cache
  })
  response.end(body)
}

const answerJson = (response: ServerResponse, status: number, body: unknown) =>
  answer(response, status, "application/json; charset=utf-8", JSON.stringify(body))

const readBody = (request: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_DOCUMENT_BYTES) {
        resolve(undefined)
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

/** Starts the workbench's server; resolves once it listens. */
export const startWorkbenchServer = async (options: WorkbenchServerOptions): Promise<RunningWorkbench> => {
  const host = options.host ?? "127.0.0.1"
  const today = options.today ?? todayByTheClock
  const assets = loadAssets(options.webRoot ?? DEFAULT_WEB_ROOT)
  const boundToLoopback = host === "127.0.0.1" || host === "localhost" || host === "::1"
  let origin = ""
  let port = 0
  const isOwnName = (name: string) => (boundToLoopback ? LOOPBACK_NAMES.has(name) : true)
  const isOwnOrigin = (text: string) => {
    try {
      const url = new URL(text)
      return (
        url.protocol === "http:" &&
        url.port === String(port) &&
        (boundToLoopback ? isOwnName(url.hostname) : url.host === new URL(origin).host)
      )
    } catch {
      return false
    }
  }

  const products = options.products
  const productFolders = () =>
    products === undefined ? undefined : { directory: products.directory, folders: products.readFolders() }

  const workspace = (): WorkspaceDocument => {
    const read = productFolders()
    return {
      today: today(),
      tariff_directory: options.tariffDirectory,
      tariffs: [...readTariffFiles(options.tariffDirectory), ...readProposalFiles(options.proposalPaths ?? [])],
      golden_tables: [
        ...readGoldenTables(options.tariffDirectory, options.goldenPaths ?? []),
        // the products directory keeps its products' golden tables beside their folders, as examples/products does
        ...(read === undefined ? [] : readGoldenTables(read.directory, []))
      ],
      ...(read === undefined
        ? {}
        : {
            products: {
              directory: read.directory,
              folders: read.folders.map(({ folder, files }) => ({
                folder,
                files: [...files].map(([file, source]) => ({ file, source }))
              }))
            }
          })
    }
  }

  /** Reads a version's text from a save request, or answers why not. */
  const savedText = async (
    request: IncomingMessage,
    response: ServerResponse,
    what: string
  ): Promise<string | undefined> => {
    if (request.headers.origin !== undefined && !isOwnOrigin(request.headers.origin)) {
      answerJson(response, 403, { refused: "saving is allowed from the workbench's own page only" })
      return undefined
    }
    if (!/^application\/json\b/.test(request.headers["content-type"] ?? "")) {
      answerJson(response, 415, { refused: `send the ${what} as application/json` })
      return undefined
    }
    const source = await readBody(request)
    if (source === undefined) answerJson(response, 413, { refused: `a ${what} is at most ${MAX_DOCUMENT_BYTES} bytes` })
    return source
  }

  const answerSave = (response: ServerResponse, outcome: SaveOutcome) => {
    if (outcome._tag === "Saved")
      return answerJson(response, 201, Schema.encodeSync(SaveAnswer)({ saved: outcome.file }))
    return answerJson(
      response,
      outcome.kind === "in-effect" || outcome.kind === "backdated" ? 409 : 422,
      Schema.encodeSync(SaveAnswer)({ refused: outcome.reason })
    )
  }

  const saveTariff = async (request: IncomingMessage, response: ServerResponse) => {
    const source = await savedText(request, response, "tariff")
    if (source === undefined) return
    const read = productFolders()
    return answerSave(
      response,
      saveTariffVersion(options.tariffDirectory, source, today(), {
        allowBackdated: options.allowBackdated === true,
        ...(read === undefined ? {} : { products: read })
      })
    )
  }

  const saveProduct = async (request: IncomingMessage, response: ServerResponse) => {
    const read = productFolders()
    if (read === undefined)
      return answerJson(response, 409, {
        refused:
          "product versions are saved into a products directory: start the workbench with --products DIR (the shipped products are the core's)"
      })
    const source = await savedText(request, response, "product document")
    if (source === undefined) return
    return answerSave(
      response,
      saveProductVersion(read.directory, read.folders, source, today(), {
        allowBackdated: options.allowBackdated === true
      })
    )
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const hostName = (request.headers.host ?? "").replace(/:\d+$/, "")
    if (!isOwnName(hostName))
      return answer(response, 421, "text/plain; charset=utf-8", "the workbench answers on loopback names only\n")
    const path = new URL(request.url ?? "/", "http://workbench").pathname
    if (path === "/api/workspace" && request.method === "GET")
      return answerJson(response, 200, Schema.encodeSync(WorkspaceDocument)(workspace()))
    if (path === "/api/tariffs" && request.method === "POST") return saveTariff(request, response)
    if (path === "/api/products" && request.method === "POST") return saveProduct(request, response)
    if (path.startsWith("/api/")) return answerJson(response, 404, { error: `no ${request.method} ${path}` })
    if (request.method !== "GET" && request.method !== "HEAD")
      return answer(response, 405, "text/plain; charset=utf-8", "method not allowed\n")
    const asset = assets.get(path === "/" ? "/index.html" : path)
    if (asset?.contentType.startsWith("text/html")) {
      const nonce = randomBytes(16).toString("base64")
      return answer(
        response,
        200,
        asset.contentType,
        asset.body.toString("utf8").replaceAll(NONCE_PLACEHOLDER, nonce),
        "no-store",
        nonce
      )
    }
    if (asset !== undefined) return answer(response, 200, asset.contentType, asset.body, "no-cache")
    if (assets.size === 0)
      return answer(
        response,
        503,
        "text/plain; charset=utf-8",
        "the workbench page is not built: run `pnpm build` at the repository root\n"
      )
    return answer(response, 404, "text/plain; charset=utf-8", "not found\n")
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) answerJson(response, 500, { error: (error as Error).message })
      else response.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  port = (server.address() as AddressInfo).port
  origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`
  return {
    url: origin,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
