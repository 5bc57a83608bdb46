/**
 * The embedded token mode's key pair: ES256, kept in the data directory
 * (`signing-key.json`, readable by the owner only), created on first use by
 * whichever of the service and the `kasko` command comes first.
 * @module
 */
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { randomUUID } from "node:crypto"

/** The algorithm the embedded key signs tokens with, and the only one a token verified against that key may name. */
export const SIGNING_ALGORITHM = "ES256"

/** The embedded key pair, as loaded from the data directory: its key id (the tokens' `kid`) and both halves. */
export interface SigningKey {
  readonly kid: string
  readonly privateKey: CryptoKey
  readonly publicKey: CryptoKey
}

const keyFile = (dataDirectory: string) => join(dataDirectory, "signing-key.json")

const load = async (file: string): Promise<SigningKey> => {
  const jwk = JSON.parse(readFileSync(file, "utf8")) as JWK & { kid: string }
  const { d: _private, ...publicJwk } = jwk
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey
  }
}

/** Loads the data directory's signing key, creating it if there is none. */
export const loadOrCreateSigningKey = async (dataDirectory: string): Promise<SigningKey> => {
  const file = keyFile(dataDirectory)
  try {
    return await load(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new Error(`cannot read the signing key ${file}: ${(error as Error).message}`)
  }
  mkdirSync(dataDirectory, { recursive: true })
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: SIGNING_ALGORITHM }
  try {
    // wx: if another process created it meanwhile, keep theirs
    writeFileSync(file, `${JSON.stringify(jwk)}\n`, { flag: "wx", mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  return load(file)
}
