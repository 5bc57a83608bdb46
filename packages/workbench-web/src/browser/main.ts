/**
 * The workbench page: loads the workspace, then shows one view at a time,
 * chosen by the address' fragment (#price, #grid, #compare, #impact, #check, #edit, #product)
 * from the navigation's links.
 */
import { App } from "./App.js"
import { h, replaceChildren } from "./Dom.js"
import { markFirstPrice, SCRIPT_START, WORKSPACE_LOADED } from "./Timing.js"
import { renderCheckView } from "./views/CheckView.js"
import { renderCompareView } from "./views/CompareView.js"
import { renderEditView } from "./views/EditView.js"
import { renderGridView } from "./views/GridView.js"
import { renderImpactView } from "./views/ImpactView.js"
import { renderPriceView } from "./views/PriceView.js"
import { renderProductView } from "./views/ProductView.js"
import { loadWorkspace } from "./Workspace.js"

const VIEWS = {
  price: { title: "Price", render: renderPriceView },
  grid: { title: "Price grid", render: renderGridView },
  compare: { title: "Compare versions", render: renderCompareView },
  impact: { title: "Impact", render: renderImpactView },
  check: { title: "Check", render: renderCheckView },
  edit: { title: "Edit", render: renderEditView },
  product: { title: "Edit product", render: renderProductView }
} as const

type ViewName = keyof typeof VIEWS

const viewOfLocation = (): ViewName => {
  const name = location.hash.slice(1)
  return name in VIEWS ? (name as ViewName) : "price"
}

const start = async () => {
  performance.mark(SCRIPT_START)
  const main = document.getElementById("view")!
  const nav = document.getElementById("views")!
  let app: App
  try {
    app = new App(await loadWorkspace())
    performance.mark(WORKSPACE_LOADED)
  } catch (error) {
    replaceChildren(
      main,
      h("p", { class: "problem", role: "alert" }, `The workspace could not be loaded: ${(error as Error).message}`)
    )
    return
  }
  const { directory, proposals, products, catalogueProblems, today } = app.workspace
  document.getElementById("directory")!.textContent =
    `Tariff directory: ${directory}${proposals.length === 0 ? "" : ` · proposals: ${proposals.join(", ")}`}${products === undefined ? "" : ` · products: ${products.directory}`} · today ${today}`
  // a product folder changed since the server checked it: the page prices without it, and says why
  if (catalogueProblems.length > 0)
    document
      .getElementById("directory")!
      .after(
        h(
          "p",
          { class: "problem", role: "alert" },
          `Left out of the catalogue: ${catalogueProblems.join("; ")} (kasko products check ${products?.directory ?? ""} says more)`
        )
      )
  const links = Object.entries(VIEWS).map(([name, view]) =>
    h("li", {}, h("a", { href: `#${name}`, "data-view": name }, view.title))
  )
  replaceChildren(nav, h("ul", {}, links))

  const show = (moveFocus: boolean) => {
    app.settleEdits?.()
    const name = viewOfLocation()
    for (const link of nav.querySelectorAll("a")) {
      if (link.dataset["view"] === name) link.setAttribute("aria-current", "page")
      else link.removeAttribute("aria-current")
    }
    document.title = `${VIEWS[name].title} · kasko workbench`
    replaceChildren(main, VIEWS[name].render(app))
    main.dataset["view"] = name
    if (name === "price") markFirstPrice()
    // after a link was followed, the view's content is next for the keyboard and the screen reader
    if (moveFocus) main.focus()
  }
  window.addEventListener("hashchange", () => show(true))
  show(false)
}

void start()
