/**
 * A sliding-window log: one sorted set per caller holding the time (ms, Redis clock) of each request counted in
 * the window. A request is allowed while fewer than `limit` requests lie in the last `window` ms, so no
 * stretch of `window` ms ever holds more than `limit` allowed requests, wherever it falls (a fixed calendar
 * window lets 2 × limit through around its boundary, a token bucket limit + refill). Memory is bounded by
 * `limit` entries per active caller, and refused requests add nothing.
 *
 * One script run is one atomic step shared by every API process: it trims, counts and, unless only peeking, takes
 * a slot for each request it is given (their members, in arrival order: the takes of one subject asked during one
 * turn of the event loop share a run, see rate-limiter.service.ts); with a usage field prefix it also counts them as
 * VALID or RATE_LIMITED in the API-key usage hash (KEYS[2]) in the same step. n requests in one run are decided
 * exactly as n runs one after another within the same millisecond: the first `limit - count` are allowed, the rest
 * refused.
 *
 * With a guard window (KEYS[3], the failed-credential budget of the request's address) the same step first checks
 * that one: when it is full nothing is taken or counted and the guard's figures are returned, so a request pays one
 * round trip for every window it is judged by.
 *
 * KEYS: [1] window set, [2] usage hash, [3] guard window set (only with a guard limit)
 * ARGV: [1] limit, [2] window ms, [3] 'take' | 'peek', [4] usage field prefix or '', [5] guard limit or '', then one
 * member per request to take (none to peek)
 * Returns { requests in the window before this run, requests it allowed, ms until the oldest leaves the window after
 * it (0 when empty), 0 }; when the guard refused, { the guard's requests in its window, 0, ms until its oldest
 * leaves, 1 }.
 */
export const SLIDING_WINDOW_LUA = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
if ARGV[5] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
  local failures = redis.call('ZCARD', KEYS[3])
  if failures >= tonumber(ARGV[5]) then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    return { failures, 0, tonumber(oldest[2]) + window - now, 1 }
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local asked = #ARGV - 5
local taken = 0
if ARGV[3] == 'take' then
  taken = math.max(0, math.min(asked, limit - count))
  if taken > 0 then
    local scored = {}
    for i = 1, taken do
      scored[2 * i - 1] = now
      scored[2 * i] = ARGV[5 + i]
    end
    redis.call('ZADD', KEYS[1], unpack(scored))
    redis.call('PEXPIRE', KEYS[1], window)
  end
  if ARGV[4] ~= '' then
    if taken > 0 then redis.call('HINCRBY', KEYS[2], ARGV[4] .. 'VALID', taken) end
    if asked > taken then redis.call('HINCRBY', KEYS[2], ARGV[4] .. 'RATE_LIMITED', asked - taken) end
  end
end
local reset = 0
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return { count, taken, reset, 0 }
`;
