/** Exports: a table as CSV, a chart as SVG or PNG, saved by the browser as a download. */

const download = (name: string, blob: Blob) => {
  const url = URL.createObjectURL(blob)
  const link = document.createElement("a")
  link.href = url
  link.download = name
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Saves text of a media type under a file name. */
export const downloadText = (name: string, text: string, type: string): void =>
  download(name, new Blob([text], { type }))

/** Saves text (a CSV) under a file name. */
export const downloadCsv = (name: string, csv: string): void => downloadText(name, csv, "text/csv;charset=utf-8")

/** The chart as a standalone SVG document. */
export const svgDocument = (svg: SVGSVGElement): string => {
  const copy = svg.cloneNode(true) as SVGSVGElement
  copy.setAttribute("xmlns", "http://www.w3.org/2000/svg")
  copy.removeAttribute("class")
  // the page's selection outline is not part of the chart
  for (const selection of copy.querySelectorAll(".selection")) selection.remove()
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`
}

/** Saves a chart as SVG. */
export const downloadSvg = (name: string, svg: SVGSVGElement): void =>
  download(name, new Blob([svgDocument(svg)], { type: "image/svg+xml" }))

/** Saves a chart as PNG, drawn at twice its size for sharp print. */
export const downloadPng = async (name: string, svg: SVGSVGElement): Promise<void> => {
  const width = Number(svg.getAttribute("width"))
  const height = Number(svg.getAttribute("height"))
  const url = URL.createObjectURL(new Blob([svgDocument(svg)], { type: "image/svg+xml" }))
  try {
    const image = new Image()
    image.src = url
    await image.decode()
    const canvas = document.createElement("canvas")
    canvas.width = width * 2
    canvas.height = height * 2
    const context = canvas.getContext("2d")!
    context.fillStyle = "#ffffff"
    context.fillRect(0, 0, canvas.width, canvas.height)
    context.drawImage(image, 0, 0, canvas.width, canvas.height)
    const png = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob === null ? reject(new Error("no PNG")) : resolve(blob)), "image/png")
    )
    download(name, png)
  } finally {
    URL.revokeObjectURL(url)
  }
}
