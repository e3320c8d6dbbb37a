/**
 * The scripts of ViewRollup (view-rollup.service.ts). Both name the per-bucket keys from the counter's namespace, as
 * ViewTrends' TOP script does (one Redis, not a cluster): `<ns>:hits:<bucket>`, `<ns>:visitors:<bucket>:<member>`,
 * `<ns>:rank-unique:<bucket>`.
 */

/**
 * Takes up to ARGV[1] changed `<bucket>|<member>` (KEYS[2], CHANGED_KEY) and returns, per entry, the entry, its hits and
 * its visitors' HyperLogLog as stored ('' for a key that is gone). Returns nil, taking nothing, while KEYS[1] (the
 * restored mark) is missing: a Redis that came back empty must get its counts back before its new, small ones may
 * overwrite PostgreSQL's. ARGV[2]: the namespace.
 */
export const TAKE_CHANGED = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local entries = redis.call('SPOP', KEYS[2], ARGV[1])
local out = {}
for _, entry in ipairs(entries) do
  local sep = string.find(entry, '|', 1, true)
  local bucket, member = string.sub(entry, 1, sep - 1), string.sub(entry, sep + 1)
  out[#out + 1] = entry
  out[#out + 1] = redis.call('HGET', ARGV[2] .. ':hits:' .. bucket, member) or ''
  out[#out + 1] = redis.call('GET', ARGV[2] .. ':visitors:' .. bucket .. ':' .. member) or ''
end
return out`;

/**
 * Adds stored buckets to what Redis holds now (the views counted since it came back): the HyperLogLogs merged (PFMERGE:
 * a register-wise maximum, so a union), the hits added, the bucket's ranking of distinct viewers set to the merged
 * count. Each key keeps the later of its expiry and the bucket's (its start + ARGV[2] seconds). The whole page and the
 * restore's cursor (KEYS[1] := ARGV[4]) change in one step, so a restore cut short goes on after its last page and
 * never adds a bucket twice. ARGV: [1] now (s), [2] retention (s), [3] namespace, [4] cursor, then per bucket its
 * name, member, hits, visitors and start (s).
 */
export const MERGE_BUCKETS = `
local now, retention, ns = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local function expireAtLeast(key, ttl)
  local left = redis.call('TTL', key)
  if left < ttl then redis.call('EXPIRE', key, ttl) end
end
for i = 5, #ARGV, 5 do
  local bucket, member, hits, visitors = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3]
  local ttl = tonumber(ARGV[i + 4]) + retention - now
  if ttl > 0 then
    local key = ns .. ':visitors:' .. bucket .. ':' .. member
    if redis.call('EXISTS', key) == 1 then
      local staged = key .. ':restoring'
      redis.call('SET', staged, visitors)
      redis.call('PFMERGE', key, key, staged)
      redis.call('DEL', staged)
    else
      redis.call('SET', key, visitors)
    end
    expireAtLeast(key, ttl)
    local hitsKey, ranking = ns .. ':hits:' .. bucket, ns .. ':rank-unique:' .. bucket
    redis.call('HINCRBY', hitsKey, member, hits)
    expireAtLeast(hitsKey, ttl)
    redis.call('ZADD', ranking, redis.call('PFCOUNT', key), member)
    expireAtLeast(ranking, ttl)
  end
end
redis.call('SET', KEYS[1], ARGV[4])
return 1`;
