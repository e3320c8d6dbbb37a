/**
 * The ranks of several accounts on a column's global board, with the version read in the same script: one round
 * trip for a listing that ranks a page of leaders (as separate calls: the version, the board's size, then a rank
 * per account).
 *
 * KEYS: [1] the version key. ARGV: [1], [2] the board's key before and after its version, then per account its
 * member and score. Returns {} without a version, else per account its 1-based rank as RankReader.rankOf gives it: a
 * score of 0 is unranked (0), an account on the board has its own, and one not on it
 * yet (the engine catching up with its update) goes after every better score.
 */
export const GLOBAL_RANKS_LUA = `
local version = redis.call('GET', KEYS[1])
if not version then return {} end
local board = ARGV[1] .. version .. ARGV[2]
local out = {}
for i = 3, #ARGV, 2 do
  local score = tonumber(ARGV[i + 1])
  local rank = 0
  if score > 0 then
    local at = redis.call('ZREVRANK', board, ARGV[i])
    if at then rank = at + 1 else rank = redis.call('ZCOUNT', board, '(' .. ARGV[i + 1], '+inf') + 1 end
  end
  out[#out + 1] = rank
end
return out`;
