/** The HTTP side of `kasko workbench --products DIR`: the product folders in the workspace, and saving a product's version. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ProductFolder } from "../src/model/ProductFolders.js"
import { startWorkbenchServer, type RunningWorkbench } from "../src/server/index.js"
import { productsDirectoryCopy, tariffDirectoryCopy, VAN_DOCUMENT } from "./fixtures.js"

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

  it("answers no products without a products directory", async () => {
    const without = await startWorkbenchServer({ tariffDirectory: tariffs.path, webRoot })
    try {
      expect(Object.keys(await workspaceOf(without.url))).toEqual([
        "today",
        "tariff_directory",
        "tariffs",
        "golden_tables"
      ])
    } finally {
      await without.stop()
    }
  })
})
