/**
 * The service's configuration, from environment variables, validated at start
 * with messages that name the variable.
 */
import { DocumentLinks } from "@kasko/core"
import { Config, ConfigProvider, Effect, Option, Result, Schema, SchemaIssue } from "effect"

/** The version of the API this service implements (OpenAPI `info.version`). */
export const API_VERSION = "1.0.0"

/** Where the SQLite database and the embedded signing key live unless KASKO_DATA_DIR says otherwise. */
export const DEFAULT_DATA_DIRECTORY = "./data"

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const

/**
 * A refusal, kept in the words kasko has always printed for it (`(Invalid data at PATH: "…")`, see
 * `wordingOf`): at the variable when a value did not parse, or when a check came before any default; at no
 * path when the check came after one.
 */
const invalidData = (path: string, value: unknown, message: string): Effect.Effect<never, Config.ConfigError> => {
  const issue = new SchemaIssue.InvalidValue({ message }, value)
  return Effect.fail(
    new Config.ConfigError(new Schema.SchemaError(path === "" ? issue : new SchemaIssue.Pointer([path], issue)))
  )
}

/** A variable's text parsed by `parse`; undefined refuses it as "Expected <expected> but received <text>". */
const parsed = <A>(name: string, expected: string, parse: (text: string) => A | undefined): Config.Config<A> =>
  Config.String(name).pipe(
    Config.mapEffect((text) => {
      const value = parse(text)
      return value === undefined
        ? invalidData(name, text, `Expected ${expected} but received ${JSON.stringify(text)}`)
        : Effect.succeed(value)
    })
  )

const integer = (name: string) =>
  parsed(name, "an integer value", (text) => {
    const value = Number(text)
    return Number.isInteger(value) ? value : undefined
  })

const url = (name: string): Config.Config<URL> =>
  parsed(name, "an URL value", (text) => (URL.canParse(text) ? new URL(text) : undefined))

/**
 * A URL the links in answers are made of: http or https, and nothing a link must not carry — no user info (it
 * would hand a password to every client that reads an offer), no query or fragment (what is appended to it would
 * land inside them). Its normalised form (`new URL(text).href`), or undefined.
 */
const linkUrlOf = (text: string): string | undefined => {
  if (!URL.canParse(text) || /[?#]/.test(text)) return undefined
  const url = new URL(text)
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)/i.exec(text.trim())?.[1] ?? ""
  return /^https?:$/.test(url.protocol) && url.host !== "" && !authority.includes("@") ? url.href : undefined
}

/** A variable that must be a link URL (`linkUrlOf`), refused in words that say what one looks like. */
const linkUrl = (name: string, example: string): Config.Config<string> =>
  parsed(name, `an http or https URL with no query, fragment or user info, like ${example}`, linkUrlOf)

const literal =
  <const L extends ReadonlyArray<string>>(...literals: L) =>
  (name: string): Config.Config<L[number]> =>
    parsed(name, `one of (${literals.join(", ")})`, (text) => literals.find((literal) => literal === text))

/** Refuses a value `validation` rejects, with `message`, at `path` ("" after a default; see invalidData). */
const validate =
  <A>(options: { readonly message: string; readonly validation: (value: A) => boolean; readonly path?: string }) =>
  (self: Config.Config<A>): Config.Config<A> =>
    Config.mapEffect(self, (value) =>
      options.validation(value) ? Effect.succeed(value) : invalidData(options.path ?? "", value, options.message)
    )

const integerBetween = (name: string, fallback: number, min: number, max: number) =>
  integer(name).pipe(
    Config.withDefault(fallback),
    validate({
      message: `${name} must be a whole number from ${min} to ${max}`,
      validation: (value) => value >= min && value <= max
    })
  )

const FIELDS = {
  port: integerBetween("PORT", 8080, 0, 65_535),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  dataDirectory: Config.String("KASKO_DATA_DIR").pipe(Config.withDefault(DEFAULT_DATA_DIRECTORY)),
  productsDirectory: Config.option(Config.String("KASKO_PRODUCTS_DIR")),
  databaseUrl: Config.option(
    Config.String("KASKO_DATABASE_URL").pipe(
      validate({
        path: "KASKO_DATABASE_URL",
        message: "KASKO_DATABASE_URL must be a postgres:// or postgresql:// URL",
        validation: (url) => /^postgres(ql)?:\/\//.test(url)
      })
    )
  ),
  databaseSchema: Config.String("KASKO_DATABASE_SCHEMA").pipe(
    Config.withDefault("public"),
    validate({
      message: "KASKO_DATABASE_SCHEMA must be a lower-case identifier",
      validation: (schema) => /^[a-z_][a-z0-9_]{0,62}$/.test(schema)
    })
  ),
  logLevel: literal(...LOG_LEVELS)("KASKO_LOG_LEVEL").pipe(Config.withDefault("info" as const)),
  sqliteSynchronous: literal("FULL", "NORMAL")("KASKO_SQLITE_SYNCHRONOUS").pipe(Config.withDefault("FULL" as const)),
  bodyLimitBytes: integerBetween("KASKO_BODY_LIMIT_BYTES", 100 * 1024, 1024, 10 * 1024 * 1024),
  // every link to kasko's own documents begins with it: without a trailing slash, as paths are appended
  publicUrl: Config.option(
    linkUrl("KASKO_PUBLIC_URL", "https://api.insurer.example").pipe(Config.map((url) => url.replace(/\/+$/, "")))
  ),
  // where the insurer keeps its documents; kasko serves its own where it keeps none
  documentsBaseUrl: Config.option(linkUrl("KASKO_DOCUMENTS_BASE_URL", "https://documents.insurer.example/kasko")),
  privacyPolicyUrl: Config.option(linkUrl("KASKO_PRIVACY_POLICY_URL", "https://insurer.example/privacy")),
  basePath: Config.String("KASKO_BASE_PATH").pipe(
    Config.withDefault(""),
    validate({
      message: "KASKO_BASE_PATH must be a path like /partner/car/v1: lower-case segments, no trailing slash",
      validation: (path) => path === "" || /^(\/[a-z0-9._~-]+)+$/.test(path)
    })
  ),
  purgeIntervalMinutes: integerBetween("KASKO_PURGE_INTERVAL_MINUTES", 60, 1, 7 * 24 * 60),
  activatedRetentionDays: integerBetween("KASKO_ACTIVATED_RETENTION_DAYS", 365, 0, 100 * 365),
  jwksUrl: Config.option(url("KASKO_JWKS_URL")),
  tokenIssuer: Config.option(Config.String("KASKO_TOKEN_ISSUER")),
  tokenAudience: Config.option(Config.String("KASKO_TOKEN_AUDIENCE")),
  jwksCacheSeconds: integerBetween("KASKO_JWKS_CACHE_SECONDS", 600, 0, 24 * 60 * 60),
  jwksCooldownSeconds: integerBetween("KASKO_JWKS_COOLDOWN_SECONDS", 30, 0, 60 * 60),
  requestTimeoutMillis: integerBetween("KASKO_REQUEST_TIMEOUT_MS", 10_000, 100, 600_000),
  rateLimitPerMinute: integerBetween("KASKO_RATE_LIMIT_PER_MINUTE", 6_000, 1, 10_000_000),
  sandboxRateLimitPerMinute: integerBetween("KASKO_SANDBOX_RATE_LIMIT_PER_MINUTE", 600, 1, 10_000_000),
  // a quote's document takes ~7 ms of the event loop: one partner's share of the printing is bounded apart
  documentRateLimitPerMinute: integerBetween("KASKO_DOCUMENT_RATE_LIMIT_PER_MINUTE", 60, 1, 10_000_000),
  authFailuresPerMinute: integerBetween("KASKO_AUTH_FAILURES_PER_MINUTE", 300, 1, 10_000_000),
  trustProxy: Config.String("KASKO_TRUST_PROXY").pipe(
    Config.withDefault(""),
    validate({
      message:
        "KASKO_TRUST_PROXY must be a number of proxy hops (1), or addresses and subnets like loopback, 10.0.0.0/8",
      validation: (value) => value === "" || /^\d{1,2}$/.test(value) || /^[\w.:/]+(\s*,\s*[\w.:/]+)*$/.test(value)
    })
  ),
  maxConnections: integerBetween("KASKO_MAX_CONNECTIONS", 4_096, 1, 1_000_000),
  maxConnectionsPerAddress: integerBetween("KASKO_MAX_CONNECTIONS_PER_ADDRESS", 128, 1, 1_000_000),
  redisUrl: Config.option(
    Config.String("KASKO_REDIS_URL").pipe(
      validate({
        path: "KASKO_REDIS_URL",
        message: "KASKO_REDIS_URL must be a redis:// or rediss:// URL",
        validation: (url) => /^rediss?:\/\//.test(url)
      })
    )
  ),
  // OpenTelemetry's standard variables: traces are exported over OTLP/HTTP when an endpoint is set
  otlpEndpoint: Config.option(url("OTEL_EXPORTER_OTLP_ENDPOINT")),
  otlpTracesEndpoint: Config.option(url("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  otelServiceName: Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault("kasko")),
  // Prometheus's scrape endpoint, on a listener of its own: off unless a port is given
  metricsPort: Config.option(
    integer("KASKO_METRICS_PORT").pipe(
      validate({
        path: "KASKO_METRICS_PORT",
        message: "KASKO_METRICS_PORT must be a whole number from 0 to 65535",
        validation: (value) => value >= 0 && value <= 65_535
      })
    )
  ),
  metricsHost: Config.String("KASKO_METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
  // local development only: webhook endpoints over http, and on loopback or private addresses
  webhooksAllowInsecure: literal(
    "true",
    "false"
  )("KASKO_WEBHOOKS_ALLOW_INSECURE").pipe(
    Config.withDefault("false" as const),
    Config.map((value) => value === "true")
  ),
  webhookTimeoutMillis: integerBetween("KASKO_WEBHOOK_TIMEOUT_MS", 5_000, 100, 60_000),
  // how long a claimed delivery stays this instance's: after a crash, another takes it over once this has passed
  webhookLeaseMillis: integerBetween("KASKO_WEBHOOK_LEASE_MS", 60_000, 1_000, 3_600_000),
  webhookSubscriptionsPerPartner: integerBetween("KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER", 10, 1, 1_000),
  headersTimeoutMillis: integerBetween("KASKO_HEADERS_TIMEOUT_MS", 10_000, 100, 600_000),
  bodyTimeoutMillis: integerBetween("KASKO_BODY_TIMEOUT_MS", 30_000, 100, 600_000),
  keepAliveTimeoutMillis: integerBetween("KASKO_KEEP_ALIVE_TIMEOUT_MS", 5_000, 100, 600_000),
  tokenMaxLifetimeSeconds: Config.String("KASKO_TOKEN_MAX_LIFETIME").pipe(
    Config.withDefault("24h"),
    validate({
      message: "KASKO_TOKEN_MAX_LIFETIME must be a number and a unit s, m, h or d, like 24h",
      validation: (value) => durationSeconds(value) !== undefined
    }),
    Config.map((value) => durationSeconds(value)!)
  ),
  corsOrigins: Config.String("KASKO_CORS_ORIGINS").pipe(
    Config.withDefault(""),
    Config.map((origins) =>
      origins
        .split(",")
        .map((origin) => origin.trim())
        .filter((origin) => origin !== "")
    ),
    validate({
      message: "KASKO_CORS_ORIGINS must be a comma-separated list of origins like https://portal.partner.example",
      validation: (origins) => origins.every((origin) => /^https?:\/\/[^/\s]+$/.test(origin))
    })
  )
}

/** The service's configuration, read from the environment (`KASKO_*`) by `readServiceConfig`, each variable checked. */
export const ServiceConfig = Config.all(FIELDS)

export type ServiceConfig = Config.Success<typeof ServiceConfig>

/**
 * Where traces go, as OpenTelemetry defines it: the traces endpoint as given,
 * or the endpoint with `/v1/traces` appended; none when neither is set.
 */
export const tracesUrlOf = (config: ServiceConfig): string | undefined =>
  Option.isSome(config.otlpTracesEndpoint)
    ? config.otlpTracesEndpoint.value.toString()
    : Option.isSome(config.otlpEndpoint)
      ? `${config.otlpEndpoint.value.toString().replace(/\/$/, "")}/v1/traces`
      : undefined

/** Where webhook endpoints may point under this configuration. */
export const endpointPolicyOf = (config: ServiceConfig) => ({
  allowInsecure: config.webhooksAllowInsecure,
  allowPrivateAddresses: config.webhooksAllowInsecure,
  maxSubscriptionsPerPartner: config.webhookSubscriptionsPerPartner,
  developmentSwitch: "KASKO_WEBHOOKS_ALLOW_INSECURE=true"
})

const DURATION = /^(\d{1,7})(s|m|h|d)$/
const DURATION_UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const

/** `90s`, `15m`, `24h`, `7d` in seconds; undefined for anything else. */
export const durationSeconds = (text: string): number | undefined => {
  const match = DURATION.exec(text)
  if (match === null) return undefined
  const seconds = Number(match[1]) * DURATION_UNIT_SECONDS[match[2] as keyof typeof DURATION_UNIT_SECONDS]
  return seconds > 0 ? seconds : undefined
}

/** A refusal in the words kasko's messages have always used (`(Invalid data at PORT: "…")`, see invalidData). */
const wordingOf = (error: Config.ConfigError): string => {
  const cause = error.cause
  if (!Schema.isSchemaError(cause)) return cause.message
  const [path, issue] =
    cause.issue._tag === "Pointer" ? [cause.issue.path.map(String).join("."), cause.issue.issue] : ["", cause.issue]
  const message = issue._tag === "InvalidValue" ? issue.annotations?.message : undefined
  return `(Invalid data at ${path}: "${message ?? cause.message}")`
}

/** Reads the configuration from an environment; the error names each bad variable. */
export const readServiceConfig = (
  environment: Readonly<Record<string, string | undefined>>
): Result.Result<ServiceConfig, string> => {
  const provider = ConfigProvider.fromUnknown(
    Object.fromEntries(Object.entries(environment).filter((entry) => entry[1] !== undefined && entry[1] !== ""))
  )
  // each variable on its own, so that the message names every bad one, not only the first
  const fields: ReadonlyArray<Config.Config<unknown>> = Object.values(FIELDS)
  const refusals = fields.flatMap((field) => {
    const read = Effect.runSync(Effect.result(field.parse(provider)))
    return Result.isFailure(read) ? [wordingOf(read.failure)] : []
  })
  const read: Result.Result<ServiceConfig, string> =
    refusals.length > 0
      ? Result.fail(refusals.join(" and "))
      : Result.mapError(Effect.runSync(Effect.result(ServiceConfig.parse(provider))), wordingOf)
  return read.pipe(
    Result.filterOrFail(
      (config) =>
        Option.isNone(config.jwksUrl) || (Option.isSome(config.tokenIssuer) && Option.isSome(config.tokenAudience)),
      () =>
        "KASKO_JWKS_URL needs KASKO_TOKEN_ISSUER and KASKO_TOKEN_AUDIENCE: the identity provider's issuer and this API's audience"
    ),
    Result.filterOrFail(
      (config) => config.webhookLeaseMillis > config.webhookTimeoutMillis,
      () => "KASKO_WEBHOOK_LEASE_MS must be longer than KASKO_WEBHOOK_TIMEOUT_MS: a lease must outlast its attempt"
    ),
    Result.mapError((message) => `invalid configuration: ${message}`)
  )
}

/** The issuer and audience tokens must carry, and the longest lifetime they may have. */
export const tokenRulesOf = (config: ServiceConfig) => ({
  issuer: Option.getOrElse(config.tokenIssuer, () => "kasko"),
  audience: Option.getOrElse(config.tokenAudience, () => "kasko-partner-api"),
  maxLifetimeSeconds: config.tokenMaxLifetimeSeconds
})

/**
 * Whether the links offers and quotes answer name kasko's own documents (the insurer keeps not both of them) under
 * no KASKO_PUBLIC_URL: then they name http://localhost:PORT, which no partner's customer can open.
 */
export const linksNameLocalhost = (config: ServiceConfig): boolean =>
  Option.isNone(config.publicUrl) && (Option.isNone(config.documentsBaseUrl) || Option.isNone(config.privacyPolicyUrl))

/**
 * The host names the service is reached by — the loopback names, and KASKO_PUBLIC_URL's — which its MCP endpoint
 * answers to: a request naming another Host is refused, so that no web page can reach it by DNS rebinding.
 */
export const serviceHostsOf = (config: ServiceConfig): ReadonlyArray<string> => [
  "localhost",
  "127.0.0.1",
  "[::1]",
  ...(Option.isSome(config.publicUrl) ? [new URL(config.publicUrl.value).hostname] : [])
]

/** The URL the OpenAPI document names as the server. */
export const publicUrlOf = (config: ServiceConfig, port: number): string =>
  Option.getOrElse(config.publicUrl, () => `http://localhost:${port}`)

/** The partner API's public URL: KASKO_PUBLIC_URL (or http://localhost:PORT) and KASKO_BASE_PATH. */
export const apiRootOf = (config: ServiceConfig, port: number): string =>
  `${publicUrlOf(config, port).replace(/\/+$/, "")}${config.basePath}`

/**
 * The links offers and quotes answer: to the insurer's documents where it keeps them (KASKO_DOCUMENTS_BASE_URL,
 * KASKO_PRIVACY_POLICY_URL), else to kasko's own below `apiRoot()` (`apiRootOf`; read at each answer, as a
 * service learns its port once it listens).
 */
export const documentLinksOf = (config: ServiceConfig, apiRoot: () => string): DocumentLinks.DocumentLinksShape =>
  DocumentLinks.keptByInsurer(
    {
      documentsBaseUrl: Option.getOrUndefined(config.documentsBaseUrl),
      privacyPolicyUrl: Option.getOrUndefined(config.privacyPolicyUrl)
    },
    DocumentLinks.servedBy(apiRoot)
  )
