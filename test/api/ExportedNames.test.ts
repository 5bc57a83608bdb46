/**
 * Every package's public API as a list of names, read from its built type
 * declarations through each entry of its exports map, and compared with the
 * list committed under test/api/exports/. A new, renamed or removed export
 * fails this test until the list is updated (`npx vitest run test/api -u`),
 * so the change shows in review as a decision, not a side effect. Namespace
 * exports (`export * as Pricing`) are listed with their members, one level
 * deep, because that is where most of the surface is.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { exportedNames, lineOf, PUBLIC_PACKAGES } from "./PublicApi.js"

describe("the public API of every package", () => {
  for (const { name, entries } of PUBLIC_PACKAGES) {
    it(`${name} exports exactly the names in test/api/exports`, async () => {
      const names = exportedNames(entries).map(lineOf)
      expect(names.length).toBeGreaterThan(0)
      await expect(`${names.join("\n")}\n`).toMatchFileSnapshot(join("exports", `${name.replace("@kasko/", "")}.txt`))
    })
  }
})

/**
 * A `require` from outside a package that can find it: from test/ when test/ depends on it, else from a released
 * package that does (test/ lacks some adapters, which only the server imports).
 */
const requireFromOutside = (name: string): NodeJS.Require => {
  const dependents = [join(import.meta.dirname, ".."), ...PUBLIC_PACKAGES.map(({ folder }) => folder)]
  for (const folder of dependents) {
    const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"))
    if (manifest.name === name) continue
    const dependencies = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies }
    if (name in dependencies) return createRequire(join(folder, "package.json"))
  }
  throw new Error(`no workspace package depends on ${name}`)
}

describe("what is not exported", () => {
  const require = createRequire(import.meta.url)

  it.each([
    "@kasko/core/dist/src/pricing/Pricing.js",
    "@kasko/core/src/pricing/Pricing.ts",
    "@kasko/core/pricing/Pricing",
    "@kasko/express/dist/src/Dispatch.js"
  ])("cannot be imported: %s", (specifier) => {
    expect(() => require.resolve(specifier)).toThrow(expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }))
  })

  it("while every subpath of the exports map resolves", () => {
    for (const subpath of ["", "/transport", "/storage", "/actuarial", "/administration"]) {
      expect(require.resolve(`@kasko/core${subpath}`)).toMatch(/packages[/\\]core[/\\]dist[/\\]src[/\\]/)
    }
  })

  for (const { name, entries } of PUBLIC_PACKAGES) {
    it(`${name}: its built files and sources cannot be imported by path, only its entries`, () => {
      const outside = requireFromOutside(name)
      for (const specifier of [`${name}/dist/src/index.js`, `${name}/src/index.ts`, `${name}/internal/index.js`])
        expect(() => outside.resolve(specifier), specifier).toThrow(
          expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" })
        )
      for (const { specifier } of entries) expect(outside.resolve(specifier), specifier).toMatch(/[/\\]dist[/\\]/)
    })
  }
})
