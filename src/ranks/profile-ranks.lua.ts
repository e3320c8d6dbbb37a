import { CELL_SCOPES_LUA } from './cell-scopes.lua';

/**
 * An account's ranks on every column board in each of its scopes, read in one round trip (the profile pays for
 * it on every `account.getInfo`; as separate calls it was four: the version, the account's cell, the scopes'
 * populations, then the ranks).
 *
 * The scope keys of a cell are derived here as `scopeKeysOf` (rank-scopes.ts) derives them (cell-scopes.lua.ts).
 *
 * KEYS: [1] the version key.
 * ARGV: [1] the prefix of a version's keys up to the version (`<prefix>:ranks:v`), [2] the account id (placement
 *       field), [3] its member, then the columns' names.
 * Returns {} without a version; {version} when the account is not placed; else {version, n, the n scope keys in
 * the order global, region, country, state, city (present ones only), their n populations, then per column n values:
 * a 0-based reverse rank, or -1 where the account is not in the set (it scores 0 there, and the sets keep no zeros: a
 * zero value is unranked, rank 0)}. The script needs none of the account's scores, so the profile sends it without waiting for
 * its row (AccountProfileService.getInfo).
 */
export const PROFILE_RANKS_LUA = `${CELL_SCOPES_LUA}
local version = redis.call('GET', KEYS[1])
if not version then return {} end
local base = ARGV[1] .. version .. ':'
local cell = redis.call('HGET', base .. 'placement', ARGV[2])
if not cell then return { version } end
local scopes = scopesOf(cell)
local out = { version, #scopes }
for _, scope in ipairs(scopes) do out[#out + 1] = scope end
local populations = redis.call('HMGET', base .. 'population', unpack(scopes))
for i = 1, #scopes do out[#out + 1] = populations[i] or '0' end
for a = 4, #ARGV do
  local prefix = base .. 'b:' .. ARGV[a] .. ':'
  -- Most accounts score 0 on most columns: absent from the global set, they are absent from every scope's, so the
  -- other scopes are not looked at (a look-up of a missing member in a large set is a cache miss of its own).
  local scored = true
  for _, scope in ipairs(scopes) do
    local at = scored and redis.call('ZREVRANK', prefix .. scope, ARGV[3]) or nil
    if not at then scored = false end
    out[#out + 1] = at or -1
  end
end
return out`;
