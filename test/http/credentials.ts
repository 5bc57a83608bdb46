/** Partners and credentials made with the real `kasko` command code, for end-to-end tests. */
import { runCli } from "@kasko/server"

/** Runs a kasko admin command against a data directory; throws when it fails. */
export const kasko = async (dataDirectory: string, ...args: Array<string>): Promise<string> => {
  const previous = process.env["KASKO_DATA_DIR"]
  process.env["KASKO_DATA_DIR"] = dataDirectory
  try {
    const result = await runCli(args)
    if (result.exitCode !== 0) throw new Error(`kasko ${args.join(" ")} failed: ${result.stderr}`)
    return result.stdout
  } finally {
    if (previous === undefined) delete process.env["KASKO_DATA_DIR"]
    else process.env["KASKO_DATA_DIR"] = previous
  }
}

export const ALL_SCOPES = "products:read offers:create quotes:create quotes:read quotes:activate"

export interface PartnerCredentials {
  readonly partnerId: string
  readonly subscriptionKey: string
  readonly token: string
  readonly headers: Record<string, string>
}

/** Adds a partner and issues it a token with the given scopes. */
export const addPartner = async (dataDirectory: string, partnerId: string, scopes = ALL_SCOPES): Promise<PartnerCredentials> => {
  const added = JSON.parse(await kasko(dataDirectory, "partners", "add", "--id", partnerId, "--name", `${partnerId} A/S`)) as {
    subscription_key: string
  }
  const token = (await kasko(dataDirectory, "tokens", "issue", "--partner", partnerId, "--scopes", scopes)).trim()
  return {
    partnerId,
    subscriptionKey: added.subscription_key,
    token,
    headers: { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": added.subscription_key }
  }
}
