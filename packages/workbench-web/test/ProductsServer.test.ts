/** The HTTP side of `kasko workbench --products DIR`: the product folders in the workspace, and saving a product's version. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ProductFolder } from "../src/model/ProductFolders.js"
import { startWorkbenchServer, type RunningWorkbench } from "../src/server/index.js"
import { productsDirectoryCopy, tariffDirectoryCopy, VAN_DOCUMENT, vanWith } from "./fixtures.js"

/** Each folder's JSON files by their path in it (the command reads them with @kasko/server's readProductFolders). */
const readFolders = (directory: string): Array<ProductFolder> =>
  readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const folder = join(directory, entry.name)
      const files = readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((file) => file.isFile() && file.name.endsWith(".json"))
        .map((file) => join(file.parentPath, file.name))
        .sort()
      return {
        folder: entry.name,
        files: new Map(files.map((path) => [relative(folder, path).split("\\").join("/"), readFileSync(path, "utf8")]))
      }
    })

const workspaceOf = async (url: string) => (await (await fetch(`${url}/api/workspace`)).json()) as Record<string, any>

describe("the workbench server with a products directory", () => {
  const tariffs = tariffDirectoryCopy()
  const products = productsDirectoryCopy()
  const webRoot = mkdtempSync(join(tmpdir(), "kasko-web-root-"))
  let workbench: RunningWorkbench
  beforeAll(async () => {
    writeFileSync(join(webRoot, "index.html"), "<p>page</p>")
    workbench = await startWorkbenchServer({
      tariffDirectory: tariffs.path,
      today: () => "2026-03-02",
      webRoot,
      products: { directory: products.path, readFolders: () => readFolders(products.path) }
    })
  })
  afterAll(async () => {
    await workbench.stop()
    tariffs.remove()
    products.remove()
    rmSync(webRoot, { recursive: true, force: true })
  })

  it("answers the product folders' files as read, and the golden tables beside them", async () => {
    const workspace = await workspaceOf(workbench.url)
    expect(workspace["products"].directory).toBe(products.path)
    expect(workspace["products"].folders).toEqual([
      {
        folder: "insurance-van-business",
        files: [
          { file: "product.json", source: VAN_DOCUMENT },
          {
            file: "tariffs/v1.json",
            source: readFileSync(join(products.path, "insurance-van-business", "tariffs", "v1.json"), "utf8")
          }
        ]
      }
    ])
    expect(workspace["golden_tables"].map((table: { file: string }) => table.file)).toEqual([
      "insurance-van-business-v1.golden.csv"
    ])
  })

  const saveProduct = (url: string, body: string, origin = url) =>
    fetch(`${url}/api/products`, { method: "POST", headers: { "content-type": "application/json", origin }, body })

  it("saves a product's new version from its own page, and lists it in its folder next time", async () => {
    const v2 = vanWith((document) => Object.assign(document, { version: "v2", effective_from: "2027-01-01" }))
    const saved = await saveProduct(workbench.url, v2)
    expect(saved.status).toBe(201)
    expect(await saved.json()).toEqual({ saved: "insurance-van-business/versions/v2.json" })
    const workspace = await workspaceOf(workbench.url)
    expect(workspace["products"].folders[0].files).toContainEqual({ file: "versions/v2.json", source: v2 })
    // never twice
    const again = await saveProduct(workbench.url, v2)
    expect(again.status).toBe(409)
    expect(((await again.json()) as { refused: string }).refused).toMatch(/never overwritten/)
  })

  it("answers 422 to a document with a checker's error and 403 to another site", async () => {
    const broken = vanWith((document) => Object.assign(document, { version: "v3", effective_from: "2027-13-01" }))
    const refused = await saveProduct(workbench.url, broken)
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { refused: string }).refused).toMatch(/effective_from/)
    const v4 = vanWith((document) => Object.assign(document, { version: "v4", effective_from: "2028-01-01" }))
    expect((await saveProduct(workbench.url, v4, "http://evil.example")).status).toBe(403)
  })

  it("answers no products without a products directory, and saves none", async () => {
    const without = await startWorkbenchServer({ tariffDirectory: tariffs.path, webRoot })
    try {
      expect(Object.keys(await workspaceOf(without.url))).toEqual([
        "today",
        "tariff_directory",
        "tariffs",
        "golden_tables"
      ])
      const refused = await saveProduct(without.url, VAN_DOCUMENT)
      expect(refused.status).toBe(409)
      expect(((await refused.json()) as { refused: string }).refused).toMatch(/start the workbench with --products DIR/)
    } finally {
      await without.stop()
    }
  })
})
