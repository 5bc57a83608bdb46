/**
 * A web worker of the impact view: it runs `impactWorkerJob` — the job the
 * command's worker threads run — on the messages of the page's pool. Its first
 * message is what it starts with (a web worker has no workerData); each one
 * after is answered. Bundled apart as /impact-worker.js.
 */
import {
  type ImpactWorkerAnswer,
  type ImpactWorkerData,
  impactWorkerJob,
  type ImpactWorkerMessage
} from "@kasko/workbench/browser"

/** The worker's global scope, as far as it is used (the page's types are the window's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent) => void) | null
  postMessage: (answer: ImpactWorkerAnswer) => void
}

const scope = globalThis as unknown as WorkerScope
let answer: ((message: ImpactWorkerMessage) => ImpactWorkerAnswer) | undefined

scope.onmessage = (event) => {
  if (answer === undefined) answer = impactWorkerJob(event.data as ImpactWorkerData)
  else scope.postMessage(answer(event.data as ImpactWorkerMessage))
}
