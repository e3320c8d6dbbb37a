/**
 * `scopesOf(cell)` in Lua, for the scripts that need an account's scope keys from its stored cell: derived as
 * `scopeKeysOf` (rank-scopes.ts) derives them — `g`, `r:<region>`, `c:<country>`, `s:<country>|<state>`,
 * `t:<country>|<state>|<city>`, each only when its parts are present, in that order. The rank-engine suite compares
 * the boards and the profile's ranks with a recomputation, so the two derivations cannot drift unnoticed.
 */
export const CELL_SCOPES_LUA = `
local function scopesOf(cell)
  local parts, from = {}, 1
  while true do
    local bar = string.find(cell, '|', from, true)
    if not bar then parts[#parts + 1] = string.sub(cell, from); break end
    parts[#parts + 1] = string.sub(cell, from, bar - 1)
    from = bar + 1
  end
  local region, country, state, city = parts[1] or '', parts[2] or '', parts[3] or '', parts[4] or ''
  local scopes = { 'g' }
  if region ~= '' then scopes[#scopes + 1] = 'r:' .. region end
  if country ~= '' then scopes[#scopes + 1] = 'c:' .. country end
  if country ~= '' and state ~= '' then scopes[#scopes + 1] = 's:' .. country .. '|' .. state end
  if country ~= '' and city ~= '' then scopes[#scopes + 1] = 't:' .. country .. '|' .. state .. '|' .. city end
  return scopes
end`;
