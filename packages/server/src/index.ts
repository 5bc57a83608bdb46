export { runCli } from "./Cli.js"
