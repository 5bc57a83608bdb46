// WEBHOOK_SECRET=whsec_… PORT=9000 npm start — prints each quote event it receives.
import { webhookReceiver } from "./WebhookReceiver.js"

const secret = process.env["WEBHOOK_SECRET"]
if (secret === undefined || !secret.startsWith("whsec_")) {
  process.stderr.write("set WEBHOOK_SECRET to the secret `kasko webhooks add` printed (whsec_…)\n")
  process.exit(2)
}
const port = Number(process.env["PORT"] ?? 9000)
webhookReceiver({
  secret,
  onEvent: (event) => process.stdout.write(`${event.occurred_at} ${event.type} ${event.quote_id}\n`)
}).listen(port, "127.0.0.1", () => process.stderr.write(`receiving kasko's webhooks on http://127.0.0.1:${port}\n`))
