// What `pnpm release` refuses to publish: a packed package with a workspace: range, a "source" export condition,
// exports other than the workspace's, a file its `files` do not name, or an export target it lacks.
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { checkPackedTarball, publicPackages } from "./releasedPackage.mjs"

const work = mkdtempSync(join(tmpdir(), "kasko-tarball-check-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const WORKSPACE_MANIFEST = {
  name: "@kasko/example",
  version: "0.1.0",
  exports: { ".": { source: "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" } }
}

/** A package as `pnpm pack` would leave it (its manifest and files), packed into a tarball; and its workspace folder. */
const packed = (name, manifest, files) => {
  const workspace = join(work, name, "workspace")
  mkdirSync(workspace, { recursive: true })
  writeFileSync(join(workspace, "package.json"), JSON.stringify(WORKSPACE_MANIFEST))
  const root = join(work, name, "package")
  for (const [path, text] of Object.entries({ "package.json": JSON.stringify(manifest), ...files })) {
    mkdirSync(join(root, path, ".."), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const tarball = join(work, `${name}.tgz`)
  execFileSync("tar", ["-czf", tarball, "-C", join(work, name), "package"])
  return { tarball, released: { directory: workspace, name: manifest.name, version: manifest.version } }
}

const GOOD = {
  ...WORKSPACE_MANIFEST,
  exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
  files: ["dist"],
  dependencies: { "@kasko/core": "0.1.0" }
}
const BUILT = { "dist/index.js": "export {}", "dist/index.d.ts": "export {}", "README.md": "# example" }

describe("the check of a packed package", () => {
  it("passes a package of built files, its exports the workspace's", () => {
    const { tarball, released } = packed("good", GOOD, BUILT)
    expect(checkPackedTarball(tarball, released)).toEqual([])
  })

  it("names every problem of a package that must not be published", () => {
    const { tarball, released } = packed(
      "bad",
      {
        ...GOOD,
        exports: {
          ".": { source: "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
          "./extra": "./dist/extra.js"
        },
        dependencies: { "@kasko/core": "workspace:*" }
      },
      { ...BUILT, "src/index.ts": "export {}" }
    )
    expect(checkPackedTarball(tarball, released)).toEqual([
      "dependencies.@kasko/core is workspace:*",
      "exports ., ./extra when packed, not the workspace's .",
      'exports . → source is a "source" condition (./src/index.ts)',
      "./extra names ./dist/extra.js, which is not in the package",
      "holds src/index.ts, which its files do not name"
    ])
  })

  it("releases every package but the private ones, each after the @kasko packages it depends on", () => {
    const names = publicPackages().map((released) => released.name)
    expect(names).toContain("@kasko/server")
    expect(names).not.toContain("@kasko/bench")
    expect(names.indexOf("@kasko/core")).toBeLessThan(names.indexOf("@kasko/sqlite"))
    expect(names.indexOf("@kasko/sqlite")).toBeLessThan(names.indexOf("@kasko/server"))
  })
})

describe("pnpm release's refusals, before it builds anything", () => {
  // no PATH: were a refusal gone, no pnpm, npm or git could run after it (nothing built, nothing published)
  const release = (args, registry) => {
    try {
      execFileSync(process.execPath, [join(import.meta.dirname, "release.mjs"), ...args], {
        env: { ...process.env, PATH: "", npm_config_registry: registry, npm_execpath: "" },
        encoding: "utf8",
        stdio: "pipe"
      })
      return { status: 0, stderr: "" }
    } catch (error) {
      return { status: error.status, stderr: error.stderr }
    }
  }

  it("never publishes to the public npm registry unless told, nor a tree with changes there", () => {
    expect(release([], "https://registry.npmjs.org/")).toEqual({
      status: 1,
      stderr: expect.stringContaining("is the public npm registry: publish there with --public")
    })
    expect(release(["--public", "--allow-changes"], "https://registry.npmjs.org/")).toEqual({
      status: 1,
      stderr: "release: --allow-changes is refused with --public: commit the changes first\n"
    })
  })
})
