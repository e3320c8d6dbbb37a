/**
 * # Replay logs: resumable event streams
 *
 * Every event the five SSE streams send (heartbeats aside) is also appended to a **replay log**: a Redis Stream
 * per stream family (`<prefix>:replay:stats`, `…:activity`, `…:site`, `…:pricing`) or per key
 * (`<prefix>:replay:account:<id>`), trimmed with `MAXLEN`. The entry id Redis assigns (`<ms>-<seq>`, ordered across
 * API and worker processes) is the event's SSE `id:`; a client that reconnects with `Last-Event-ID` (or
 * `?lastEventId=`) is sent what it missed from the log, then the live events, each once and in order.
 *
 * - **Publishing** (`append`): the entries and the fact on the pub/sub channel are written by one Lua script,
 *   so a listener woken by the fact finds the entries already in the log. The pub/sub message is unchanged
 *   (other consumers read the same facts).
 * - **Live** (`ReplayTail`): one reader per process and log, woken by the channel, reads the new entries.
 * - **Resuming** (`resume`): one script checks that the client's last id is still in the log (then nothing after
 *   it was trimmed) and reads everything after it; otherwise the stream sends `resync-required`.
 * - **Per-key logs** (`ttlSeconds`) exist only while someone could resume: `position` creates the log when a
 *   stream opens and keeps it for `ttlSeconds` after the last stream left; publishers append only to an
 *   existing log (an account nobody watches costs nothing).
 *
 * See `docs/architecture.md` (Resumable streams) for the decisions and the memory cost.
 */
import Redis from 'ioredis';

/** One entry of a replay log: the SSE event name and its `data:` as stored (JSON text; empty when none). */
export interface ReplayEntry {
  id: string;
  event: string;
  data: string;
}

/** An event to append: its name and its data (serialised as JSON; a string is stored as is). */
export interface NewReplayEntry {
  event: string;
  data?: unknown;
}

export interface ReplayLogOptions {
  /** Entries kept. Global logs trim approximately (`~`, whole nodes: cheap), per-key logs exactly (`exact`). */
  maxLen: number;
  exact?: boolean;
  /**
   * A per-key log: kept only while watched (created by `position`, expiring `ttlSeconds` after the last
   * stream refreshed it); publishers then append only when it exists.
   */
  ttlSeconds?: number;
}

/** Why a client's last id cannot be resumed from. */
export type ResyncReason = 'malformed' | 'expired' | 'unknown';

export type ResumeResult =
  { resumed: true; entries: ReplayEntry[] } | { resumed: false; reason: Exclude<ResyncReason, 'malformed'>; position: string };

/** Marker entries (event name '') give a new log a first id; they are never sent. */
export const MARKER = '';

const EVENT_ID = /^(\d{1,15})-(\d{1,15})$/;

/** Whether `id` has the shape of an entry id; anything else is answered with `resync-required` (`malformed`). */
export function isEventId(id: string): boolean {
  return EVENT_ID.test(id);
}

/** Orders two entry ids: negative when `a` is older. */
export function compareEventIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/**
 * KEYS: the logs; ARGV: maxlen, trim (~ or =), only-if-exists (0/1), then per log: its channel, message, entry count
 * and that many event/data pairs. Per log: its entries (when it may take them), then its fact on its channel.
 */
const APPEND_EACH = `
local at = 4
for k = 1, #KEYS do
  local channel, message, count = ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2])
  at = at + 3
  if ARGV[3] == '0' or redis.call('EXISTS', KEYS[k]) == 1 then
    for i = at, at + 2 * count - 1, 2 do
      redis.call('XADD', KEYS[k], 'MAXLEN', ARGV[2], ARGV[1], '*', 'e', ARGV[i], 'd', ARGV[i + 1])
    end
  end
  if channel ~= '' then redis.call('PUBLISH', channel, message) end
  at = at + 2 * count
end
return #KEYS`;

/** Creates the log if needed (a marker entry), refreshes its expiry (ARGV[1] ms, 0: none) and returns its last id. */
const ENSURE = `
local function ensure()
  local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
  if #last == 0 then return redis.call('XADD', KEYS[1], '*', 'e', '', 'd', '') end
  return last[1][1]
end
local position = ensure()
if tonumber(ARGV[1]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
`;

const POSITION = `${ENSURE}
return position`;

/**
 * ARGV[2] is the client's last id. While it is still in the log, nothing after it has been trimmed: returns
 * {1, entries after it}. Otherwise {0, position, oldest id}: the client resynchronises from `position`.
 */
const RESUME = `${ENSURE}
if #redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[2]) == 1 then
  return {1, redis.call('XRANGE', KEYS[1], '(' .. ARGV[2], '+')}
end
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
return {0, position, first[1][1]}`;

type RawEntry = [string, string[]];

function toEntry([id, fields]: RawEntry): ReplayEntry {
  const entry: ReplayEntry = { id, event: MARKER, data: '' };
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'e') entry.event = fields[i + 1];
    else if (fields[i] === 'd') entry.data = fields[i + 1];
  }
  return entry;
}

/** The append script as a command of the client (EVALSHA: EVAL sent the whole script, and Redis hashed it, each time). */
const APPEND_COMMAND = 'badgeStatsReplayAppendEach';
type AppendCommand = Record<typeof APPEND_COMMAND, (...args: (string | number)[]) => Promise<unknown>>;
const clientsWithAppend = new WeakSet<Redis>();

function sameOptions(a: ReplayLogOptions, b: ReplayLogOptions): boolean {
  return a.maxLen === b.maxLen && !!a.exact === !!b.exact && (a.ttlSeconds ?? 0) === (b.ttlSeconds ?? 0);
}

/** One replay log (a Redis Stream). Cheap to construct: per-key logs are made per use. */
export class ReplayLog {
  constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly options: ReplayLogOptions,
  ) {
    if (!clientsWithAppend.has(redis)) {
      redis.defineCommand(APPEND_COMMAND, { lua: APPEND_EACH });
      clientsWithAppend.add(redis);
    }
  }

  /**
   * Appends `entries` (when the log may take them) and publishes `message` on `channel` (when given), in one
   * script: the fact is announced after its entries are readable.
   */
  append(channel: string, message: unknown, entries: NewReplayEntry[]): Promise<void> {
    return ReplayLog.appendEach([{ log: this, channel, message, entries }]);
  }

  /**
   * `append` to several logs of one family (same client and options) in one script, in the given order: a batch of
   * per-key events (the profile views of a moment) costs one command instead of one per event.
   */
  static async appendEach(appends: { log: ReplayLog; channel: string; message: unknown; entries: NewReplayEntry[] }[]): Promise<void> {
    if (!appends.length) return;
    const { redis, options } = appends[0].log;
    if (appends.some(({ log }) => log.redis !== redis || !sameOptions(log.options, options)))
      throw new Error('appendEach takes logs of one family (one client, one set of options)');
    const { maxLen, exact, ttlSeconds } = options;
    const args: (string | number)[] = [
      appends.length,
      ...appends.map(({ log }) => log.key),
      maxLen,
      exact ? '=' : '~',
      ttlSeconds ? '1' : '0',
    ];
    for (const { channel, message, entries } of appends) {
      args.push(channel, JSON.stringify(message), entries.length);
      for (const { event, data } of entries)
        args.push(event, data === undefined ? '' : typeof data === 'string' ? data : JSON.stringify(data));
    }
    await (redis as unknown as AppendCommand)[APPEND_COMMAND](...args);
  }

  /** The id of the newest entry (creating the log when needed, and keeping a per-key log alive). */
  async position(): Promise<string> {
    return String(await this.redis.eval(POSITION, 1, this.key, this.ttlMs()));
  }

  /** Up to `count` entries after `id`, oldest first. */
  async after(id: string, count: number): Promise<ReplayEntry[]> {
    const raw = (await this.redis.xrange(this.key, `(${id}`, '+', 'COUNT', count)) as RawEntry[];
    return raw.map(toEntry);
  }

  /** Everything after `lastId` when it can be resumed from, else why not and where to start again. */
  async resume(lastId: string): Promise<ResumeResult> {
    const reply = (await this.redis.eval(RESUME, 1, this.key, this.ttlMs(), lastId)) as [number, RawEntry[]] | [number, string, string];
    if (reply[0] === 1) return { resumed: true, entries: (reply[1] as RawEntry[]).map(toEntry) };
    const [, position, oldest] = reply as [number, string, string];
    return { resumed: false, position, reason: compareEventIds(lastId, oldest) < 0 ? 'expired' : 'unknown' };
  }

  private ttlMs(): number {
    return (this.options.ttlSeconds ?? 0) * 1000;
  }
}
