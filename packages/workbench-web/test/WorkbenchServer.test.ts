/** The HTTP side of `kasko workbench`: the page, the workspace, saving, and who may ask. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startWorkbenchServer, type RunningWorkbench } from "../src/server/index.js"
import { leasingWith, tariffDirectoryCopy } from "./fixtures.js"

const GOLDEN = join(import.meta.dirname, "..", "..", "..", "examples", "actuary-workbench", "golden")
const PROPOSALS = join(import.meta.dirname, "..", "..", "..", "examples", "actuary-workbench", "tariffs")

/** A raw request, so that the Host and Origin headers can be anything. */
const send = (url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) =>
  new Promise<{ status: number; headers: Record<string, string | Array<string> | undefined>; body: string }>(
    (resolve, reject) => {
      const call = request(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8")
          })
        )
      })
      call.on("error", reject)
      call.end(options.body)
    }
  )

describe("the workbench server", () => {
  const directory = tariffDirectoryCopy()
  const webRoot = mkdtempSync(join(tmpdir(), "kasko-web-root-"))
  let workbench: RunningWorkbench
  beforeAll(async () => {
    writeFileSync(
      join(webRoot, "index.html"),
      '<meta name="csp-nonce" content="__CSP_NONCE__"><script type="module" src="/app.js"></script>'
    )
    writeFileSync(join(webRoot, "app.js"), "export {}")
    workbench = await startWorkbenchServer({
      tariffDirectory: directory.path,
      goldenPaths: [GOLDEN],
      today: () => "2026-03-02",
      webRoot
    })
  })
  afterAll(async () => {
    await workbench.stop()
    directory.remove()
    rmSync(webRoot, { recursive: true, force: true })
  })

  it("listens on 127.0.0.1 by default", () => {
    expect(workbench.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it("serves the page with a policy that loads nothing from elsewhere, its style nonce filled in", async () => {
    const page = await send(`${workbench.url}/`, {})
    expect(page.status).toBe(200)
    const policy = String(page.headers["content-security-policy"])
    expect(policy).toMatch(/default-src 'self'; script-src 'self'; style-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]
    expect(page.body).toContain(`content="${nonce}"`)
    expect((await send(`${workbench.url}/app.js`, {})).headers["content-type"]).toMatch(/^text\/javascript/)
    expect((await send(`${workbench.url}/../package.json`, {})).status).toBe(404)
  })

  it("answers the workspace: the directory's tariff files as written, the golden tables, and today", async () => {
    const answer = await send(`${workbench.url}/api/workspace`, {})
    const workspace = JSON.parse(answer.body)
    expect(workspace.today).toBe("2026-03-02")
    expect(workspace.tariffs.map((file: { file: string }) => file.file)).toEqual([
      "insurance-car-leasing/v1.json",
      "insurance-car-standalone/v1.json"
    ])
    expect(workspace.tariffs[0].source).toBe(
      readFileSync(join(directory.path, "insurance-car-leasing", "v1.json"), "utf8")
    )
    expect(workspace.golden_tables.map((table: { file: string }) => table.file)).toEqual(["reference-tariff-v1.csv"])
  })

  it("saves a new version from its own page and lists it next time", async () => {
    const source = leasingWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
    const saved = await send(`${workbench.url}/api/tariffs`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: workbench.url },
      body: source
    })
    expect(saved.status).toBe(201)
    expect(JSON.parse(saved.body)).toEqual({ saved: "insurance-car-leasing/v2.json" })
    const workspace = JSON.parse((await send(`${workbench.url}/api/workspace`, {})).body)
    expect(workspace.tariffs.map((file: { file: string }) => file.file)).toContain("insurance-car-leasing/v2.json")
  })

  it("answers 409 to overwriting a version in effect and 422 to a text that is no tariff", async () => {
    const headers = { "content-type": "application/json", origin: workbench.url }
    const inEffect = await send(`${workbench.url}/api/tariffs`, {
      method: "POST",
      headers,
      body: leasingWith(() => {})
    })
    expect(inEffect.status).toBe(409)
    expect(JSON.parse(inEffect.body).refused).toMatch(/never overwritten/)
    expect((await send(`${workbench.url}/api/tariffs`, { method: "POST", headers, body: "{}" })).status).toBe(422)
  })

  it("refuses a save from another site, or not sent as JSON", async () => {
    const source = leasingWith((document) => Object.assign(document, { version: "v9", effective_from: "2027-01-01" }))
    const foreign = await send(`${workbench.url}/api/tariffs`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://evil.example" },
      body: source
    })
    expect(foreign.status).toBe(403)
    const plain = await send(`${workbench.url}/api/tariffs`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: workbench.url },
      body: source
    })
    expect(plain.status).toBe(415)
  })

  it("answers only requests addressed to a loopback name (no DNS rebinding)", async () => {
    expect((await send(`${workbench.url}/api/workspace`, { headers: { host: "evil.example" } })).status).toBe(421)
    const port = new URL(workbench.url).port
    expect((await send(`${workbench.url}/api/workspace`, { headers: { host: `localhost:${port}` } })).status).toBe(200)
  })

  it("says how to build the page when its bundle is missing", async () => {
    const unbuilt = await startWorkbenchServer({ tariffDirectory: directory.path, webRoot: join(webRoot, "missing") })
    try {
      const page = await send(`${unbuilt.url}/`, {})
      expect(page.status).toBe(503)
      expect(page.body).toMatch(/pnpm build/)
    } finally {
      await unbuilt.stop()
    }
  })

  it("answers proposals after the directory's files, marked and named by their file", async () => {
    const withProposals = await startWorkbenchServer({
      tariffDirectory: directory.path,
      proposalPaths: [PROPOSALS],
      webRoot
    })
    try {
      const workspace = JSON.parse((await send(`${withProposals.url}/api/workspace`, {})).body)
      const tariffs = workspace.tariffs as Array<{ file: string; source: string; proposal?: true }>
      // the directory's files (an earlier test saved one more) come first, unmarked
      expect(tariffs.at(-1)).toMatchObject({ file: "insurance-car-leasing-v2-proposal.json", proposal: true })
      expect(tariffs.slice(0, -1).every((file) => file.proposal === undefined && file.file.includes("/"))).toBe(true)
      expect(tariffs.at(-1)!.source).toBe(
        readFileSync(join(PROPOSALS, "insurance-car-leasing-v2-proposal.json"), "utf8")
      )
    } finally {
      await withProposals.stop()
    }
  })
})
