/**
 * The Lua of the changes' state. Each script runs atomically, so a placement is never seen half-written and the
 * counts behind one rank are read from one state.
 */

/**
 * `beats(key, score, member)`: how many entries of a sorted set rank ahead of (score, member) in a board's order —
 * a higher score, or an equal score and a lower account id. Members encode the account id so that equal scores
 * read in reverse order put the lower id first (memberOf), so a probe member that sorts right after `member`, added
 * at `score`, has exactly that many entries ahead of it: add it, read its reverse rank, remove it — three O(log N)
 * steps that no other client can observe (a script runs atomically), however many accounts share the score (low
 * scores are shared by thousands). Should Redis refuse the write (out of memory), the block of equal scores is
 * binary-searched by position instead (O(log² N)).
 */
const BEATS = `
local function beats(key, score, member)
  local probe = member .. '~'
  if type(redis.pcall('ZADD', key, score, probe)) == 'number' then
    local ahead = redis.call('ZREVRANK', key, probe)
    redis.call('ZREM', key, probe)
    return ahead
  end
  local above = redis.call('ZCOUNT', key, '(' .. score, '+inf')
  local lo, hi = 0, redis.call('ZCOUNT', key, score, score)
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    local at = redis.call('ZREVRANGE', key, above + mid, above + mid)[1]
    if at > member then lo = mid + 1 else hi = mid end
  end
  return above + lo
end
`;

/**
 * Replaces one account's entries in every window (KEYS: the stamp key, then per window and column the up, down, cur
 * and old sets, as ChangeKeys.placementKeys lists them). ARGV: member, stamp, visible (1/0), windows, columns, then
 * per window: mover (1/0), and per column: current score, window-start score. Who the movers are and when they last
 * moved is not kept here (PostgreSQL answers it: `accounts.updated_at`), only the scores the ranks need.
 * A placement read from an older snapshot than the one last applied is dropped (returns 0): two placements of one
 * account (the writer's and the sweeper's) may finish in either order.
 */
export const PLACE = `
local member, stamp, visible = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local last = redis.call('GET', KEYS[1])
if last and tonumber(last) > stamp then return 0 end
redis.call('SET', KEYS[1], stamp, 'PX', 600000)
local windows, columns = tonumber(ARGV[4]), tonumber(ARGV[5])
local k, a = 2, 6
for w = 1, windows do
  local mover = ARGV[a] == '1'
  a = a + 1
  for c = 1, columns do
    local up, down, cur, old = KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
    local now, before = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
    redis.call('ZREM', up, member); redis.call('ZREM', down, member)
    redis.call('ZREM', cur, member); redis.call('ZREM', old, member)
    if mover and now ~= before then
      if visible then
        if now > before then redis.call('ZADD', up, now - before, member) else redis.call('ZADD', down, before - now, member) end
      end
      if now > 0 then redis.call('ZADD', cur, now, member) end
      if before > 0 then redis.call('ZADD', old, before, member) end
    end
    k, a = k + 4, a + 2
  end
end
return 1`;

/**
 * A page of a maintained listing, ranked at both ends, with the versions it reads resolved in the same step: a
 * request is one round trip (by EVALSHA), not a version read per state plus the page.
 *
 * KEYS: [1] the changes' version key, [2] the rank engine's. ARGV: [1] offset, [2] limit, [3] 1 for the up set, then
 * four keys split around their version, each as the text before it and the text after it (ChangeKeys and RankKeys
 * name them; the script only inserts the version): the up or down set, the engine's board (rank version), the
 * window's cur and old sets. Returns {'changes'} or {'ranks'} when that state has no version (a flushed Redis: the
 * caller starts a build and answers 503), else per row: member, new rank, old rank, current score, window-start
 * score — all read in one atomic step.
 *
 * The old board is the current one with every mover put back at its window-start score. Movers whose score did
 * not change sit where they sit now, so only the changed ones (the cur and old sets) differ:
 *   old rank = 1 + (accounts now ahead of the old score) − (changed movers now ahead of it)
 *                + (changed movers whose old score was ahead of it: the account's own place in the old set).
 * Scores of 0 are in no set; their rank here is the place after the board's last ranked account, on either end
 * (the service shows it as 0: unranked, change-rows.ts shownRank).
 */
export const LIVE_PAGE = `${BEATS}
local changes = redis.call('GET', KEYS[1])
if not changes then return { 'changes' } end
local ranks = redis.call('GET', KEYS[2])
if not ranks then return { 'ranks' } end
local function key(i, version) return ARGV[i] .. version .. ARGV[i + 1] end
local list, board = key(4, changes), key(6, ranks)
local cur, old = key(8, changes), key(10, changes)
local offset, up = tonumber(ARGV[1]), ARGV[3] == '1'
local page = redis.call('ZREVRANGE', list, offset, offset + tonumber(ARGV[2]) - 1, 'WITHSCORES')
if #page == 0 then return {} end
local members = {}
for i = 1, #page, 2 do members[#members + 1] = page[i] end
local nows = redis.call('ZMSCORE', cur, unpack(members))
local scored = redis.call('ZCARD', board)
local zeroOldRank = 1 + scored - redis.call('ZCARD', cur) + redis.call('ZCARD', old)
local out = {}
for i, m in ipairs(members) do
  local now = tonumber(nows[i] or '0')
  local change = tonumber(page[2 * i])
  local before = up and now - change or now + change
  local newRank = scored + 1
  if now > 0 then
    -- The engine places the account itself; only while it catches up with this update is the score looked up.
    local at = redis.call('ZREVRANK', board, m)
    if at then newRank = at + 1 else newRank = beats(board, now, m) + 1 end
  end
  local oldRank = zeroOldRank
  if before > 0 then
    oldRank = 1 + beats(board, before, m) - beats(cur, before, m) + redis.call('ZREVRANK', old, m)
  end
  out[#out + 1] = m; out[#out + 1] = newRank; out[#out + 1] = oldRank
  out[#out + 1] = tostring(now); out[#out + 1] = tostring(before)
end
return out`;

/**
 * For each (score, member) pair of ARGV, how many entries of KEYS[1] rank ahead of it (see BEATS); a member the set
 * holds at that very score is simply looked up.
 */
export const BEATS_MANY = `${BEATS}
local out = {}
for i = 1, #ARGV, 2 do
  local at = redis.call('ZSCORE', KEYS[1], ARGV[i + 1])
  if at and tonumber(at) == tonumber(ARGV[i]) then out[#out + 1] = redis.call('ZREVRANK', KEYS[1], ARGV[i + 1])
  else out[#out + 1] = beats(KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return out`;

/**
 * A page of a stored snapshot (ChangeSnapshots), read with the snapshot's own bounds so that a snapshot replaced
 * between the caller's freshness check and this read is read whole, never half the old one.
 *
 * KEYS: [1] the meta (JSON with `up` and `down`: how many rows the score-up and score-down runs hold), [2] the rows
 * (packed, ARGV[4] bytes each: the score-up run, the score-down run, then the movers whose score did not change),
 * [3] the list's positions into the rows (uint32 LE; unused for the score lists, which are runs of the rows).
 * ARGV: [1] the list, [2] the first row, [3] how many, [4] the row width. Returns the rows' bytes, or nil when the
 * snapshot has gone (expired or evicted).
 */
export const READ_SNAPSHOT = `
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local meta = cjson.decode(raw)
local list, from, count, width = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if list == 'score-up' or list == 'score-down' then
  local first, size = 0, meta.up
  if list == 'score-down' then first, size = meta.up, meta.down end
  if from >= size then return '' end
  local last = math.min(from + count, size)
  return redis.call('GETRANGE', KEYS[2], (first + from) * width, (first + last) * width - 1)
end
local positions = redis.call('GETRANGE', KEYS[3], from * 4, (from + count) * 4 - 1)
local out = {}
for i = 1, math.floor(#positions / 4) do
  local at = struct.unpack('<I4', positions, (i - 1) * 4 + 1)
  out[i] = redis.call('GETRANGE', KEYS[2], at * width, (at + 1) * width - 1)
end
return table.concat(out)`;
