/** Partners and credentials made with the real `kasko` command code, for end-to-end tests. */
import { afterAll, beforeAll } from "vitest"
import { kaskoWith, temporaryDirectory } from "../support.js"
import { makeClient, startTestService, type TestService } from "./support.js"

/** Runs a kasko admin command against a data directory; throws when it fails. */
export const kasko = (dataDirectory: string, ...args: Array<string>): Promise<string> =>
  kaskoWith({ KASKO_DATA_DIR: dataDirectory }, ...args)

export const ALL_SCOPES = "products:read offers:create quotes:create quotes:read quotes:activate webhooks:manage"

export interface PartnerCredentials {
  readonly partnerId: string
  readonly subscriptionKey: string
  readonly token: string
  readonly headers: Record<string, string>
}

/** Adds a partner and issues it a token with the given scopes. */
export const addPartner = async (
  dataDirectory: string,
  partnerId: string,
  scopes = ALL_SCOPES
): Promise<PartnerCredentials> => {
  const added = JSON.parse(
    await kasko(dataDirectory, "partners", "add", "--id", partnerId, "--name", `${partnerId} A/S`, "--json")
  ) as {
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

/**
 * For a test file: the real service (bearer token + subscription key) on a
 * fresh data directory, with the given partners added through `kasko`; set up
 * before the file's tests, stopped and removed after them. Read the fields
 * inside tests and hooks (they exist once set up).
 */
export const serviceWithPartners = (
  name: string,
  partnerIds: ReadonlyArray<string>,
  environment: Record<string, string> = {}
) => {
  const directory = temporaryDirectory(`kasko-${name}-`)
  const state = {
    directory,
    server: undefined as unknown as TestService,
    client: undefined as unknown as Awaited<ReturnType<typeof makeClient>>,
    partners: {} as Record<string, PartnerCredentials>
  }
  beforeAll(async () => {
    for (const partnerId of partnerIds) state.partners[partnerId] = await addPartner(directory.path, partnerId)
    state.server = await startTestService({ dataDirectory: directory.path, authentication: "real", environment })
    state.client = await makeClient(state.server.url)
  }, 60_000)
  afterAll(async () => {
    await state.server?.stop()
    directory.remove()
  })
  return state
}
