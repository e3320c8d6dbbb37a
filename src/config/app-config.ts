import { resolve } from 'node:path';
import { ConnectionsConfig, connectionsConfig } from './connections-config';

/**
 * The service's whole configuration, read from the environment and validated exactly once at boot.
 * Nothing else in the code base reads `process.env`: everything receives an AppConfig.
 */
export type PlatformMode = 'live' | 'simulator';

export interface AppConfig {
  serviceName: string;
  nodeEnv: string;
  port: number;
  publicBaseUrl: string;
  databaseUrl: string;
  redisUrl: string;
  /** Prefix of every Redis key the service writes (queues, counters, pub/sub), so several instances can share one Redis. */
  redisPrefix: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  bodyLimitBytes: number;
  /**
   * Bodies over LARGE_BODY_BYTES are read and parsed this many at a time, the others waiting up to `queue` deep and
   * `queuePerAddress` per client address; a body being read must come at `minBytesPerSecond` and be in within
   * `deadlineMs` (see LargeBodyGate).
   */
  largeBodies: { concurrency: number; queue: number; queuePerAddress: number; deadlineMs: number; minBytesPerSecond: number };
  /** Node's HTTP server timeouts, set on purpose (see src/common/http/server-timeouts.ts). */
  httpServer: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  sessionTtlHours: number;
  refreshTtlDays: number;
  /** A session's absolute lifetime from its sign-in: refreshing never takes it (or its tokens) past this. */
  sessionAbsoluteDays: number;
  /** Browser access (CORS): the origins whose pages may call the API; every other origin gets no CORS headers. */
  cors: { origins: string[] };
  /** Requests allowed per caller in any rolling window (see src/auth/rate-limit); one Redis sorted set per caller. */
  rateLimits: {
    windowSeconds: number;
    apiKey: number;
    session: number;
    /** Per client address, for callers without a (valid) credential. */
    anonymous: number;
    /** Failed credentials per client address; past it, every credential from that address gets 429 unchecked. */
    failedCredentials: number;
  };
  /** Sign-in with the platform (OpenID 2.0, src/signin). */
  signIn: {
    /** The web app's origin: an assertion whose `openid.return_to` is elsewhere is refused. */
    webAppOrigin: string;
    /** The platform's OpenID endpoint (`<PLATFORM_COMMUNITY_URL>/openid/login`): it alone is asked to verify assertions. */
    providerEndpoint: string;
    /** account.login attempts per client address in any rolling minute. */
    attemptsPerMinute: number;
  };
  /** Self-service developer apps (src/developer-apps): each is one API key. */
  developerApps: {
    /** Live apps an account may hold; creating one more is a 409. */
    perAccount: number;
    /** Creates, updates and deletes an account may make in any rolling hour; past it 429. */
    changesPerHour: number;
  };
  /** A signed-in user's own settings (src/account-settings). */
  accountSettings: {
    /** account.updateSettings and account.updateVanity calls an account may make in any rolling hour; past it 429. */
    changesPerHour: number;
  };
  /** Proxy hops in front of the API whose X-Forwarded-For is trusted for the client address (express `trust proxy`). */
  trustProxyHops: number;
  /** After SIGTERM/SIGINT a process that has not finished closing by then exits anyway. */
  shutdownTimeoutMs: number;
  /** HTTP server processes of the API (node:cluster, sharing the port); 1 serves from the entrypoint itself. */
  apiProcesses: number;
  /**
   * How long an answer shared by every caller asking the same question is reused (src/common/shared-answers), and the
   * longest the price book of the profile cost fields is kept (src/pricing/badge-price-book.ts); 0: never.
   */
  sharedAnswerTtlMs: number;
  /** Whether each HTTP process keeps the column boards in memory for the profile's ranks (RankReplicaService). */
  rankReplica: boolean;
  /**
   * Tracked accounts a board's scope must hold before a rank there counts as a best rank or a rank milestone
   * (src/ranks/populated-boards.ts): a rank gained while a board held a handful of accounts says nothing.
   */
  populatedBoardMinAccounts: number;
  /** Whether each HTTP process keeps every account's card in memory for the card listings (CardReplica). */
  cardReplica: boolean;
  /** Interval of the heartbeat event on every event stream. */
  streamHeartbeatMs: number;
  /** Open event streams per account, per client address (anonymous ones) and per API process (src/auth/stream-limits). */
  streams: { perAccount: number; perAddress: number; maxOpen: number };
  /** The exports (src/exports): starts per account per minute, open per account and per API process, rows per batch. */
  exports: { perMinute: number; perAccount: number; maxOpen: number; batch: number };
  /** The monthly donation goal shown by donate.getGoal, in cents. */
  donationGoalCents: number;
  platform: {
    mode: PlatformMode;
    apiUrl: string;
    communityUrl: string;
    apiKey: string | null;
    timeoutMs: number;
    maxRetries: number;
    dailyCallBudget: number;
    /**
     * What requests may spend of the daily budget (src/platform/spending): one account, all its keys and sessions
     * together, at most `accountHourlyPercent` of it in any rolling hour; all requests together at most what the
     * worker's reserve (`workerReservePercent`) leaves of each day.
     */
    accountHourlyPercent: number;
    workerReservePercent: number;
    /** How long the platform's "no such account" and "private" answers to look-ups are reused. */
    negativeCacheSeconds: number;
    /** Market price calls per minute, shared by every process: the market's limit is far stricter than the Web API's. */
    marketCallsPerMinute: number;
  };
  simulator: {
    /** Start the simulator inside the API process (simulator mode, no PLATFORM_API_URL or SIMULATOR_URL). */
    embedded: boolean;
    /** Interface the embedded simulator listens on (0.0.0.0 to let a worker in another container reach it). */
    host: string;
    port: number;
    seed: number;
    accounts: number;
    latencyMs: number;
    tickMs: number;
  };
  queue: {
    updateCooldownSeconds: number;
    concurrency: number;
    attempts: number;
    lockDurationMs: number;
    stalledIntervalMs: number;
    /** How often the worker looks for updates left `pending` / `in_progress` without a job (UpdateReconciler). */
    recoveryIntervalMs: number;
  };
  views: {
    /** How often the worker copies the changed profile view counts from Redis into PostgreSQL (ViewRollup). */
    rollupIntervalMs: number;
  };
  ranks: {
    /** Entries all per-app and per-badge boards may hold together before the least recently read are dropped. */
    lazyBudget: number;
  };
  changes: {
    /** Bytes the leaderboard.getChanges snapshots may hold in Redis together before the oldest are dropped. */
    snapshotBudgetBytes: number;
  };
  images: {
    /** Where the directory image store keeps uploaded images (absolute; resolved from the working directory). */
    storeDir: string;
    /** The body limit of account.uploadImages only (base64 inflates images by a third); every other route keeps bodyLimitBytes. */
    uploadBodyLimitBytes: number;
    /** account.uploadImages requests one account may make in any rolling hour and day; past either 429. */
    uploadsPerHour: number;
    uploadsPerDay: number;
    /** Images decoded and re-encoded at once per API process, and how many may wait; one more is a 503. */
    reencodeConcurrency: number;
    reencodeQueue: number;
    /** Largest width × height × frames of one upload (every frame is decoded into memory); past it 422. */
    pixelFrameBudget: number;
  };
  groups: {
    /** The service's own platform group (32-bit gid): `steamSetsGroup` of leaderboard.getGroupLeaderboard. */
    serviceGroupId: number;
    /** A group is read from the platform again only once its last read is this old (a group is shared by many accounts). */
    refreshIntervalSeconds: number;
    /** Group refreshes run at once per worker. */
    concurrency: number;
  };
  /** Operators' views (src/operators): Prometheus metrics and the queue dashboard. */
  operators: {
    /** The bearer credential of `GET /metrics`; null: /metrics is not served (404). */
    metricsToken: string | null;
  };
  /** The market pricing job (src/pricing). */
  pricing: {
    /** How often a pricing cycle starts. */
    intervalMs: number;
    /** Most apps one cycle prices (oldest-priced first). */
    batchApps: number;
  };
  /** E-mail (src/email): verification codes, sent through SMTP or, without an SMTP server, written to the log. */
  mail: {
    /** `smtp://user:pass@host:587` or `smtps://…:465`; query parameters are nodemailer's options. Null: the log transport. */
    smtpUrl: string | null;
    /** The From of every message. */
    from: string;
  };
  /** Signed webhooks (src/webhooks). */
  webhooks: {
    /** Accept http://127.0.0.1 / localhost endpoints (tests, local development); other private addresses stay refused. */
    allowLoopback: boolean;
    /** Endpoints one developer app may register. */
    maxPerApp: number;
    /** Delivery attempts per event and endpoint (exponential backoff from backoffMs). */
    attempts: number;
    backoffMs: number;
    /** One delivery attempt's time limit (connect to last byte of the answer's head). */
    timeoutMs: number;
    /** An endpoint whose every attempt failed for this long is disabled. */
    disableAfterMs: number;
    /** Deliveries sent at once per worker. */
    concurrency: number;
    /** Settled delivery rows (the log account.listWebhookDeliveries shows) are deleted this many days after creation. */
    deliveryRetentionDays: number;
  };
  /** Linked accounts (src/connections): OAuth providers and domain checks (connections-config.ts). */
  connections: ConnectionsConfig;
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

/** An optional shared secret: unset or empty is none; a short one is refused (it would be guessable). */
function secretToken(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  if (raw.length < 24 || /\s/.test(raw)) throw new ConfigError(`${name} must be at least 24 characters without spaces`);
  return raw;
}

const SERVICE_NAME = 'badge_stats';

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${redactUrl(raw)}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = (env[name] || fallback) as T;
  if (!allowed.includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw;
}

/** A comma-separated list of http(s) origins (`scheme://host[:port]`, nothing after it); empty: `fallback`. */
function origins(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const list = raw.split(',').map((entry) => entry.trim());
  for (const entry of list) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(entry);
    } catch {
      // Reported below.
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== entry.replace(/\/$/, ''))
      throw new ConfigError(`${name} must be comma-separated origins such as https://app.example.com, got "${entry}"`);
  }
  return [...new Set(list.map((entry) => new URL(entry).origin))];
}

/**
 * Headers within 20 s (slow-header senders hold a socket no longer; Node's default is 60 s); a whole request within
 * 150 s, above LARGE_BODY_DEADLINE_MS so the gate's 408 comes first; idle keep-alive sockets kept 65 s, longer than
 * a load balancer's idle timeout (60 s on the common ones), so the balancer closes them first and never sends a request
 * on a socket this server is closing.
 */
function httpServerTimeouts(env: Env): AppConfig['httpServer'] {
  const timeouts = {
    headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 1000, 600_000),
    requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 150_000, 1000, 3_600_000),
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 600_000),
  };
  // Node refuses a headers timeout longer than the request timeout.
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs)
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not be above HTTP_REQUEST_TIMEOUT_MS');
  return timeouts;
}

/** Removes credentials from a URL before it is shown in an error or a log line. */
export function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^/@]*)@/, '//***@').replace(/([?&]key=)[^&]*/g, '$1***');
}

export function loadConfig(env: Env): AppConfig {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const simulatorPort = int(env, 'SIMULATOR_PORT', 3100, 0, 65535);
  const apiKey = env.PLATFORM_API_KEY?.trim() || null;
  const mode: PlatformMode = apiKey ? 'live' : 'simulator';
  const explicitApiUrl = Boolean(env.PLATFORM_API_URL);
  // A simulator run elsewhere (another container, `npm run simulator`); only used without a platform key.
  const externalSimulator = env.SIMULATOR_URL ? url(env, 'SIMULATOR_URL', '', ['http:', 'https:']) : null;
  const simulatorUrl = externalSimulator ?? `http://127.0.0.1:${simulatorPort}`;
  const liveApiUrl = 'https://api.steampowered.com';
  const liveCommunityUrl = 'https://steamcommunity.com';
  const apiUrl = url(env, 'PLATFORM_API_URL', mode === 'live' ? liveApiUrl : simulatorUrl, ['http:', 'https:']);
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`, ['http:', 'https:']);
  const communityUrl = url(env, 'PLATFORM_COMMUNITY_URL', mode === 'live' && !explicitApiUrl ? liveCommunityUrl : apiUrl, [
    'http:',
    'https:',
  ]);
  const apiProcesses = int(env, 'API_PROCESSES', 1, 1, 64);
  const webAppOrigin = new URL(url(env, 'WEB_APP_ORIGIN', new URL(publicBaseUrl).origin, ['http:', 'https:'])).origin;
  const embedded = mode === 'simulator' && !explicitApiUrl && !externalSimulator;
  // Every API process would start its own embedded simulator on the same port.
  if (apiProcesses > 1 && embedded)
    throw new ConfigError('API_PROCESSES above 1 needs PLATFORM_API_URL or SIMULATOR_URL (no embedded simulator)');
  return {
    serviceName: SERVICE_NAME,
    nodeEnv: env.NODE_ENV || 'development',
    port,
    publicBaseUrl,
    databaseUrl: url(env, 'DATABASE_URL', `postgres://postgres@127.0.0.1:5432/${SERVICE_NAME}`, ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    redisPrefix: env.REDIS_PREFIX || SERVICE_NAME,
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error'] as const),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024, 1024, 16 * 1024 * 1024),
    largeBodies: {
      concurrency: int(env, 'LARGE_BODY_CONCURRENCY', 1, 1, 64),
      queue: int(env, 'LARGE_BODY_QUEUE', 64, 0, 10_000),
      queuePerAddress: int(env, 'LARGE_BODY_QUEUE_PER_ADDRESS', 4, 0, 10_000),
      deadlineMs: int(env, 'LARGE_BODY_DEADLINE_MS', 120_000, 1000, 3_600_000),
      minBytesPerSecond: int(env, 'LARGE_BODY_MIN_BYTES_PER_SECOND', 16 * 1024, 0, 1024 * 1024 * 1024),
    },
    httpServer: httpServerTimeouts(env),
    sessionTtlHours: int(env, 'SESSION_TTL_HOURS', 24, 1, 24 * 365),
    refreshTtlDays: int(env, 'REFRESH_TTL_DAYS', 30, 1, 365),
    sessionAbsoluteDays: int(env, 'SESSION_ABSOLUTE_DAYS', 90, 1, 3650),
    rateLimits: {
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
      apiKey: int(env, 'API_KEY_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
      session: int(env, 'SESSION_RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
      anonymous: int(env, 'ANONYMOUS_RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000),
      failedCredentials: int(env, 'FAILED_CREDENTIAL_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    },
    cors: { origins: origins(env, 'CORS_ORIGINS', [webAppOrigin]) },
    signIn: {
      webAppOrigin,
      providerEndpoint: `${communityUrl}/openid/login`,
      attemptsPerMinute: int(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 10, 1, 1_000_000),
    },
    developerApps: {
      perAccount: int(env, 'DEVELOPER_APPS_PER_ACCOUNT', 10, 1, 1000),
      changesPerHour: int(env, 'DEVELOPER_APP_CHANGES_PER_HOUR', 30, 1, 1_000_000),
    },
    accountSettings: {
      changesPerHour: int(env, 'SETTINGS_CHANGES_PER_HOUR', 30, 1, 1_000_000),
    },
    trustProxyHops: int(env, 'TRUST_PROXY_HOPS', 0, 0, 10),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 1000, 120_000),
    apiProcesses,
    sharedAnswerTtlMs: int(env, 'SHARED_ANSWER_TTL_MS', 1000, 0, 60_000),
    rankReplica: flag(env, 'RANK_REPLICA', true),
    populatedBoardMinAccounts: int(env, 'POPULATED_BOARD_MIN_ACCOUNTS', 100, 1, 100_000_000),
    cardReplica: flag(env, 'CARD_REPLICA', true),
    streamHeartbeatMs: int(env, 'STREAM_HEARTBEAT_MS', 15_000, 100, 300_000),
    streams: {
      perAccount: int(env, 'STREAMS_PER_ACCOUNT', 20, 1, 100_000),
      perAddress: int(env, 'STREAMS_PER_ADDRESS', 8, 1, 100_000),
      maxOpen: int(env, 'STREAMS_MAX_OPEN', 5000, 1, 1_000_000),
    },
    exports: {
      perMinute: int(env, 'EXPORTS_PER_MINUTE', 4, 1, 100_000),
      perAccount: int(env, 'EXPORTS_PER_ACCOUNT', 1, 1, 1000),
      maxOpen: int(env, 'EXPORTS_MAX_OPEN', 4, 1, 1000),
      batch: int(env, 'EXPORTS_BATCH', 1000, 1, 10_000),
    },
    donationGoalCents: int(env, 'DONATION_GOAL_CENTS', 50_000, 0, 1_000_000_000),
    platform: {
      mode,
      apiUrl,
      communityUrl,
      apiKey,
      timeoutMs: int(env, 'PLATFORM_TIMEOUT_MS', 10_000, 100, 120_000),
      maxRetries: int(env, 'PLATFORM_MAX_RETRIES', 4, 0, 10),
      dailyCallBudget: int(env, 'PLATFORM_DAILY_CALL_BUDGET', 100_000, 1, 100_000_000),
      accountHourlyPercent: int(env, 'PLATFORM_ACCOUNT_HOURLY_PERCENT', 2, 1, 100),
      workerReservePercent: int(env, 'PLATFORM_WORKER_RESERVE_PERCENT', 20, 0, 99),
      negativeCacheSeconds: int(env, 'PLATFORM_NEGATIVE_CACHE_SECONDS', 3600, 0, 30 * 86_400),
      marketCallsPerMinute: int(env, 'PLATFORM_MARKET_CALLS_PER_MINUTE', 20, 1, 600_000),
    },
    simulator: {
      embedded,
      host: env.SIMULATOR_HOST || '127.0.0.1',
      port: simulatorPort,
      seed: int(env, 'SIMULATOR_SEED', 1, 0, 2 ** 31 - 1),
      accounts: int(env, 'SIMULATOR_ACCOUNTS', 2000, 1, 1_000_000),
      latencyMs: int(env, 'SIMULATOR_LATENCY_MS', 0, 0, 60_000),
      tickMs: int(env, 'SIMULATOR_TICK_MS', 60_000, 10, 86_400_000),
    },
    queue: {
      updateCooldownSeconds: int(env, 'UPDATE_COOLDOWN_SECONDS', 3600, 0, 30 * 86400),
      concurrency: int(env, 'WORKER_CONCURRENCY', 4, 1, 64),
      attempts: int(env, 'UPDATE_ATTEMPTS', 5, 1, 50),
      lockDurationMs: int(env, 'UPDATE_LOCK_MS', 30_000, 1000, 600_000),
      stalledIntervalMs: int(env, 'UPDATE_STALLED_CHECK_MS', 15_000, 500, 600_000),
      recoveryIntervalMs: int(env, 'UPDATE_RECOVERY_INTERVAL_MS', 20_000, 100, 600_000),
    },
    views: {
      rollupIntervalMs: int(env, 'VIEW_ROLLUP_INTERVAL_MS', 30_000, 100, 600_000),
    },
    ranks: {
      lazyBudget: int(env, 'RANK_LAZY_BUDGET', 900_000, 1, 100_000_000),
    },
    changes: {
      snapshotBudgetBytes: int(env, 'CHANGES_SNAPSHOT_BUDGET_MB', 48, 1, 65_536) * 1024 * 1024,
    },
    images: {
      storeDir: resolve(env.IMAGE_STORE_DIR || 'data/images'),
      uploadBodyLimitBytes: int(env, 'IMAGE_UPLOAD_BODY_LIMIT_BYTES', 20 * 1024 * 1024, 1024, 128 * 1024 * 1024),
      uploadsPerHour: int(env, 'IMAGE_UPLOADS_PER_HOUR', 20, 1, 1_000_000),
      uploadsPerDay: int(env, 'IMAGE_UPLOADS_PER_DAY', 60, 1, 1_000_000),
      reencodeConcurrency: int(env, 'IMAGE_REENCODE_CONCURRENCY', 2, 1, 64),
      reencodeQueue: int(env, 'IMAGE_REENCODE_QUEUE', 8, 0, 10_000),
      pixelFrameBudget: int(env, 'IMAGE_PIXEL_FRAME_BUDGET', 16 * 1024 * 1024, 1, 2 ** 31 - 1),
    },
    groups: {
      serviceGroupId: int(env, 'SERVICE_GROUP_ID', 1, 1, 4_294_967_295),
      refreshIntervalSeconds: int(env, 'GROUP_REFRESH_INTERVAL_SECONDS', 86_400, 1, 365 * 86_400),
      concurrency: int(env, 'GROUP_WORKER_CONCURRENCY', 2, 1, 64),
    },
    operators: { metricsToken: secretToken(env, 'METRICS_TOKEN') },
    pricing: {
      intervalMs: int(env, 'PRICING_INTERVAL_MS', 300_000, 500, 86_400_000),
      batchApps: int(env, 'PRICING_BATCH_APPS', 50, 1, 10_000),
    },
    mail: {
      smtpUrl: env.SMTP_URL ? url(env, 'SMTP_URL', '', ['smtp:', 'smtps:']) : null,
      from: env.MAIL_FROM || 'no-reply@localhost',
    },
    webhooks: {
      allowLoopback: flag(env, 'WEBHOOK_ALLOW_LOOPBACK', false),
      maxPerApp: int(env, 'WEBHOOK_MAX_PER_APP', 10, 1, 100),
      attempts: int(env, 'WEBHOOK_ATTEMPTS', 13, 1, 50),
      backoffMs: int(env, 'WEBHOOK_BACKOFF_MS', 30_000, 10, 3_600_000),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      disableAfterMs: int(env, 'WEBHOOK_DISABLE_AFTER_MS', 86_400_000, 100, 30 * 86_400_000),
      concurrency: int(env, 'WEBHOOK_CONCURRENCY', 8, 1, 64),
      deliveryRetentionDays: int(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30, 1, 3650),
    },
    connections: connectionsConfig({
      oauthProviders: env.OAUTH_PROVIDERS,
      redirectUri: env.OAUTH_REDIRECT_URI,
      createsPerHour: int(env, 'CONNECTION_CREATES_PER_HOUR', 20, 1, 1_000_000),
      dnsServers: env.DOMAIN_VERIFY_DNS_SERVERS,
      httpsPort: int(env, 'DOMAIN_VERIFY_HTTPS_PORT', 443, 1, 65535),
      extraCaFile: env.DOMAIN_VERIFY_EXTRA_CA_FILE,
      // The simulator plays the OAuth providers whenever it plays the platform (no platform key).
      simulatorUrl: mode === 'simulator' ? apiUrl : null,
      webAppOrigin,
      fail: (message) => new ConfigError(message),
    }),
  };
}
