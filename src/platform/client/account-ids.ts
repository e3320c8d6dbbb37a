/** The platform's 64-bit id is a fixed offset from the 32-bit account id. */
export const STEAM_ID64_BASE = 76561197960265728n;

export function steamId64Of(accountId: number): string {
  return (STEAM_ID64_BASE + BigInt(accountId)).toString();
}
