// The Node.js flags `kasko serve` runs with. V8 sizes its young generation for a batch job by default
// (two 32 MB semi-spaces on a 64-bit machine): a service answering thousands of small requests a second
// fills and keeps all of it, which made the resident set under the bench's load 2.5× the hand-written
// service's. 8 MB semi-spaces keep it under 2× for about 5 % of the offers' throughput and 1 % of the
// quotes' (bench/README.md, "The service's semi-space"). Free of any import, so the bench starts its kasko with the same.

/** V8's semi-space size for the service, in MB. */
export const SERVICE_NODE_FLAGS = ["--max-semi-space-size=8"]

/** The flags to add to a Node.js started with `execArgv` and NODE_OPTIONS `nodeOptions`: none where the user chose a semi-space size. */
export const serviceNodeFlagsMissing = (execArgv, nodeOptions = "") =>
  [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) => /^--max[-_]semi[-_]space[-_]size\b/.test(flag))
    ? []
    : SERVICE_NODE_FLAGS
