/**
 * Where a previewed score sits on a column's global board, and the board around it, in one script: the version, the
 * board's population and size, the account's own place, the place of the previewed score and the entries from one
 * before to two after it (as five separate calls, this was most of `leaderboard.previewAccountRank`'s round trips).
 *
 * KEYS: [1] the version key. ARGV: [1], [2] the board's key before and after its version; [3], [4] the population
 * hash's; [5] the account's member ('' for none); [6] its score as PostgreSQL holds it ('' when the caller has not read
 * it: then the score is the board's, and an account not in the board's set answers `{version, population, scored, -1}`
 * so that the caller reads it and asks again); [7] '1' when the account is on the board (refreshed at least once);
 * [8] the hypothetical score ('' for none).
 *
 * Returns {} without a version, else {version, population, scored, position, ahead, own score, then member and score
 * of each entry from position max(1, ahead - 1) to ahead + 2 in the set}. `position` is the account's own rank (0:
 * not on the board); `ahead` is how many others come before the previewed score, which goes after those scoring more
 * than it and, when hypothetical, in front of those scoring as much. Scores of 0 are not in the set: they share the
 * last rank, scored + 1, and the caller reads the entries past the set from PostgreSQL.
 */
export const PREVIEW_PLACE_LUA = `
local version = redis.call('GET', KEYS[1])
if not version then return {} end
local board = ARGV[1] .. version .. ARGV[2]
local population = tonumber(redis.call('HGET', ARGV[3] .. version .. ARGV[4], 'g') or '0')
local scored = redis.call('ZCARD', board)
local member, own, onBoard, value = ARGV[5], ARGV[6], ARGV[7] == '1', ARGV[8]
local index = false
if member ~= '' then index = redis.call('ZREVRANK', board, member) end
if own == '' then
  if not index then return {version, population, scored, -1} end
  own = redis.call('ZSCORE', board, member)
end
local function rankOfScore(score)
  if tonumber(score) <= 0 then return scored + 1 end
  return redis.call('ZCOUNT', board, '(' .. score, '+inf') + 1
end
local position = 0
if onBoard then
  if tonumber(own) <= 0 then position = scored + 1
  elseif index then position = index + 1
  else position = rankOfScore(own) end
end
local ahead = position - 1
if value ~= '' or not onBoard then
  local score = own
  if value ~= '' then score = value end
  ahead = rankOfScore(score) - 1
  if onBoard and tonumber(own) > tonumber(score) then ahead = ahead - 1 end
end
local out = {version, population, scored, position, ahead, own}
local from = math.max(1, ahead - 1)
if from <= scored then
  local flat = redis.call('ZREVRANGE', board, from - 1, math.min(ahead + 2, scored) - 1, 'WITHSCORES')
  for i = 1, #flat do out[#out + 1] = flat[i] end
end
return out`;
