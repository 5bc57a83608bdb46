/**
 * A worker thread of `portfolioImpact`: it runs `impactWorkerJob` (the job the
 * workbench page's web workers run too) on the messages of its pool.
 */
import { parentPort, workerData } from "node:worker_threads"
import { type ImpactWorkerData, impactWorkerJob, type ImpactWorkerMessage } from "./ImpactWorkerJob.js"

const port = parentPort!
const answer = impactWorkerJob(workerData as ImpactWorkerData)

port.on("message", (message: ImpactWorkerMessage) => {
  port.postMessage(answer(message))
})
