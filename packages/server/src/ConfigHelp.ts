/**
 * The service's environment variables, their defaults and meaning, as
 * `kasko serve --help` shows them. A module of its own so that help loads no
 * engine.
 */
export const CONFIG_HELP = `environment:
  PORT                             port to listen on (default 8080; 0 picks a free one)
  HOST                             address to listen on (default 0.0.0.0)
  KASKO_DATA_DIR                   directory of the SQLite database kasko.db and the signing key (default ./data)
  KASKO_PRODUCTS_DIR               a directory of product folders (product.json, versions/<version>.json, tariffs/<version>.json) sold beside the shipped products; one named like a shipped product replaces it (kasko products check DIR checks it first)
  KASKO_DATABASE_URL               postgres://… : keep quotes and partners in PostgreSQL instead of SQLite
  KASKO_DATABASE_SCHEMA            the PostgreSQL schema kasko's tables live in (default public)
  KASKO_LOG_LEVEL                  fatal, error, warn, info, debug, trace or silent (default info)
  KASKO_SQLITE_SYNCHRONOUS         FULL (default: no acknowledged quote lost on power loss) or NORMAL (faster)
  KASKO_BODY_LIMIT_BYTES           largest request body (default 102400)
  KASKO_PUBLIC_URL                 the URL clients use, for the OpenAPI document and the links to kasko's documents: http(s), no query, fragment or user info (default: the document names its servers relative to where it is read, the links name http://localhost:PORT)
  KASKO_BASE_PATH                  mounts the partner API under a prefix such as /partner/car/v1 (default: none; /health and /ready stay at the root)
  KASKO_DOCUMENTS_BASE_URL         where the insurer keeps its IPIDs: ipid_href is {this}/ipid/{product_name}-{variant}.pdf; http(s), no query, fragment or user info (default: kasko's own, under KASKO_PUBLIC_URL)
  KASKO_PRIVACY_POLICY_URL         the insurer's privacy policy, which privacy.policy_href names; http(s), no query, fragment or user info (default: kasko's own, {KASKO_PUBLIC_URL}{KASKO_BASE_PATH}/privacy-policy)
  KASKO_PURGE_INTERVAL_MINUTES     how often expired quotes are deleted (default 60)
  KASKO_ACTIVATED_RETENTION_DAYS   how long activated quotes are kept after they expire (default 365)
  KASKO_TOKEN_ISSUER               the iss tokens must carry (default kasko; required with KASKO_JWKS_URL)
  KASKO_TOKEN_AUDIENCE             the aud tokens must carry (default kasko-partner-api; required with KASKO_JWKS_URL)
  KASKO_JWKS_URL                   verify tokens with the identity provider's keys instead of the embedded key pair
  KASKO_JWKS_CACHE_SECONDS         how long fetched keys are trusted (default 600)
  KASKO_JWKS_COOLDOWN_SECONDS      least time between two fetches of the key set (default 30)
  KASKO_REQUEST_TIMEOUT_MS         longest a request may wait (for storage) before it answers 503 (default 10000)
  KASKO_RATE_LIMIT_PER_MINUTE      requests one subscription key may make per minute, counted after authentication (default 6000)
  KASKO_SANDBOX_RATE_LIMIT_PER_MINUTE  requests one sandbox key may make per minute (default 600)
  KASKO_DOCUMENT_RATE_LIMIT_PER_MINUTE  quote documents one subscription key may have printed per minute, besides its requests (default 60)
  KASKO_REDIS_URL                  redis://… : count that limit in Redis (default: in PostgreSQL when used, else per instance)
  KASKO_AUTH_FAILURES_PER_MINUTE   requests refused with 401 one client address may make per minute; after, its failures get 429 (default 300)
  KASKO_TRUST_PROXY                the proxies in front whose X-Forwarded-For names the client: hops (1) or addresses (default none)
  KASKO_MAX_CONNECTIONS            connections held at once, kept below the open-files limit (default 4096)
  KASKO_MAX_CONNECTIONS_PER_ADDRESS  connections one client address may hold at once; more from it are closed (default 128; trusted proxies exempt)
  KASKO_METRICS_PORT               serve Prometheus metrics at GET /metrics on this port, apart from the API (default: off)
  KASKO_METRICS_HOST               address the metrics listener binds (default 127.0.0.1: only this machine can scrape)
  OTEL_EXPORTER_OTLP_ENDPOINT      export traces over OTLP/HTTP (JSON) to this collector, at /v1/traces (default: off)
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT  the traces URL itself, instead of the endpoint's /v1/traces
  OTEL_SERVICE_NAME                the service.name traces carry (default kasko)
  KASKO_HEADERS_TIMEOUT_MS         longest a client may take to send a request's headers (default 10000)
  KASKO_BODY_TIMEOUT_MS            longest a client may take to send a whole request; 408 after (default 30000)
  KASKO_KEEP_ALIVE_TIMEOUT_MS      how long an idle keep-alive connection stays open (default 5000)
  KASKO_TOKEN_MAX_LIFETIME         longest lifetime (exp - iat) a token may have, like 24h (default 24h)
  KASKO_CORS_ORIGINS               comma-separated origins browsers may call from (default none: CORS off)
  KASKO_WEBHOOK_TIMEOUT_MS         how long a webhook endpoint has to answer 2xx before the delivery is retried (default 5000)
  KASKO_WEBHOOK_LEASE_MS           how long a claimed delivery is one instance's; a crashed instance's are taken over after it (default 60000)
  KASKO_WEBHOOK_SUBSCRIPTIONS_PER_PARTNER  webhook subscriptions one partner may have; more answer 409 (default 10)
  KASKO_WEBHOOKS_ALLOW_INSECURE    true lets webhook endpoints be http and on private addresses: local development only (default false)`
