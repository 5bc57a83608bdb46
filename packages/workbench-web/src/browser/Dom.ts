/** Building the page's elements in code: a tag, its attributes and listeners, its children. */

export type Child = Node | string | number | null | undefined | false | ReadonlyArray<Child>

type Listener = (event: Event) => void

/** Attributes by name (`true`: present, `false`/`undefined`: absent), listeners as `onclick`…, `value`/`checked` set as properties. */
export type Attributes = Readonly<Record<string, string | number | boolean | undefined | Listener>>

const append = (parent: Node, children: ReadonlyArray<Child>) => {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(parent, child)
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)))
  }
}

const apply = (element: Element, attributes: Attributes) => {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || name === "value" || name === "checked") continue
    if (typeof value === "function") element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? "" : String(value))
  }
  // after the children: a select's value needs its options
  if ("value" in attributes && attributes["value"] !== undefined)
    (element as HTMLInputElement).value = String(attributes["value"])
  if ("checked" in attributes) (element as HTMLInputElement).checked = attributes["checked"] === true
}

/** An HTML element. */
export const h = <Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes: Attributes = {},
  ...children: ReadonlyArray<Child>
): HTMLElementTagNameMap[Tag] => {
  const element = document.createElement(tag)
  append(element, children)
  apply(element, attributes)
  return element
}

const SVG_NAMESPACE = "http://www.w3.org/2000/svg"

/** An SVG element (attributes only, so that an exported SVG carries its whole look). */
export const s = <Tag extends keyof SVGElementTagNameMap>(
  tag: Tag,
  attributes: Attributes = {},
  ...children: ReadonlyArray<Child>
): SVGElementTagNameMap[Tag] => {
  const element = document.createElementNS(SVG_NAMESPACE, tag)
  append(element, children)
  apply(element, attributes)
  return element
}

/** Replaces an element's children. */
export const replaceChildren = (element: Element, ...children: ReadonlyArray<Child>): void => {
  element.replaceChildren()
  append(element, children)
}

let nextId = 0
/** An id unique in the page, for label/for and aria-describedby. */
export const uniqueId = (prefix: string): string => `${prefix}-${++nextId}`

/**
 * Draws a container again and gives focus back to the control that had it
 * (found by its `name`): redrawing a form must not throw a keyboard user out.
 */
export const redrawKeepingFocus = (container: Element, redraw: () => void): void => {
  const active = document.activeElement
  const name = active instanceof HTMLElement && container.contains(active) ? active.getAttribute("name") : null
  redraw()
  if (name !== null) container.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`)?.focus()
}
