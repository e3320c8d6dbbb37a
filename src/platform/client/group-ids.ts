/** A group's 64-bit id is a fixed offset from its 32-bit gid (the `gid` of GetUserGroupList). */
export const GROUP_ID64_BASE = 103582791429521408n;

export function groupId64Of(gid: number): string {
  return (GROUP_ID64_BASE + BigInt(gid)).toString();
}

/**
 * The 32-bit gid of an id as the platform writes it: a gid, or a 64-bit group id (some responses use those), or
 * null when it is neither (not decimal, zero, or beyond 32 bits).
 */
export function gidOf(raw: string): number | null {
  if (!/^\d{1,20}$/.test(raw)) return null;
  let id = BigInt(raw);
  if (id > GROUP_ID64_BASE) id -= GROUP_ID64_BASE;
  return id >= 1n && id <= 0xffffffffn ? Number(id) : null;
}
