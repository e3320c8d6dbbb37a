import { CELL_SCOPES_LUA } from './cell-scopes.lua';

/**
 * Puts one account where its row says it belongs, in the version being served, as one atomic step (RankEngine.place).
 *
 * Atomic because the move out of the account's previous scopes depends on the cell stored for it: read and applied
 * apart, two placements of the same account at once (the worker's, and a rebuild's re-placing of the accounts
 * refreshed while it read) would both see the old cell and move the account out twice, and a placement that read the
 * cell just before a rebuild switched the scope hashes would apply its move to hashes that never held that cell.
 *
 * KEYS: [1] the version key.
 * ARGV: [1] the prefix of a version's keys up to the version (`<prefix>:ranks:v`), [2] the account id (placement
 *       field), [3] its member, [4] its cell, [5] its lower-cased country name ('' for none), [6] its country code,
 *       then the columns' names, then the account's score on each, in the same order.
 * Returns 0 without a version (nothing is served: a build will read the row), else 1.
 */
export const PLACE_ACCOUNT_LUA = `${CELL_SCOPES_LUA}
local version = redis.call('GET', KEYS[1])
if not version then return 0 end
local base = ARGV[1] .. version .. ':'
local id, member, cell = ARGV[2], ARGV[3], ARGV[4]
local columns = (#ARGV - 6) / 2
local scopes = scopesOf(cell)
local previous = redis.call('HGET', base .. 'placement', id)
if previous ~= cell then
  local now, before = {}, {}
  for _, scope in ipairs(scopes) do now[scope] = true end
  if previous then
    for _, scope in ipairs(scopesOf(previous)) do
      before[scope] = true
      if not now[scope] then
        redis.call('HINCRBY', base .. 'population', scope, -1)
        for c = 1, columns do redis.call('ZREM', base .. 'b:' .. ARGV[6 + c] .. ':' .. scope, member) end
      end
    end
    redis.call('HINCRBY', base .. 'cells', previous, -1)
  end
  for _, scope in ipairs(scopes) do
    if not before[scope] then redis.call('HINCRBY', base .. 'population', scope, 1) end
  end
  redis.call('HINCRBY', base .. 'cells', cell, 1)
  redis.call('HSET', base .. 'placement', id, cell)
  if ARGV[5] ~= '' and ARGV[6] ~= '' then redis.call('HSET', base .. 'countries', ARGV[5], ARGV[6]) end
end
for c = 1, columns do
  local score = tonumber(ARGV[6 + columns + c])
  local prefix = base .. 'b:' .. ARGV[6 + c] .. ':'
  for _, scope in ipairs(scopes) do
    if score > 0 then redis.call('ZADD', prefix .. scope, score, member) else redis.call('ZREM', prefix .. scope, member) end
  end
end
return 1`;
