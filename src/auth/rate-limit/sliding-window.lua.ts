/**
 * A sliding-window log: one sorted set per caller holding the time (ms, Redis clock) of each request counted in
 * the window. A request is allowed while fewer than `limit` requests lie in the last `window` ms, so no
 * stretch of `window` ms ever holds more than `limit` allowed requests, wherever it falls (a fixed calendar
 * window lets 2 × limit through around its boundary, a token bucket limit + refill). Memory is bounded by
 * `limit` entries per active caller, and refused requests add nothing.
 *
 * One script run is one atomic step shared by every API process: it trims, counts and, unless only
 * peeking, takes a slot; with a usage field prefix it also counts the request as VALID or RATE_LIMITED in the
 * API-key usage hash (KEYS[2]) in the same step.
 *
 * With a guard window (KEYS[3], the failed-credential budget of the request's address) the same step first checks
 * that one: when it is full nothing is taken or counted and the guard's figures are returned, so a request pays one
 * round trip for every window it is judged by.
 *
 * KEYS: [1] window set, [2] usage hash, [3] guard window set (only with a guard limit)
 * ARGV: [1] limit, [2] window ms, [3] 'take' | 'peek', [4] member, [5] usage field prefix or '', [6] guard limit or ''
 * Returns { allowed 1|0, requests in the window, ms until the oldest leaves the window (0 when empty), 1 when the
 * guard refused (the figures are then the guard's) else 0 }.
 */
export const SLIDING_WINDOW_LUA = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
if ARGV[6] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
  local failures = redis.call('ZCARD', KEYS[3])
  if failures >= tonumber(ARGV[6]) then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    return { 0, failures, tonumber(oldest[2]) + window - now, 1 }
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = count < limit
if allowed and ARGV[3] == 'take' then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
end
if ARGV[5] ~= '' then
  local outcome = 'RATE_LIMITED'
  if allowed then outcome = 'VALID' end
  redis.call('HINCRBY', KEYS[2], ARGV[5] .. outcome, 1)
end
local reset = 0
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
if allowed then return { 1, count, reset, 0 } end
return { 0, count, reset, 0 }
`;
