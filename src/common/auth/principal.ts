/** The authenticated caller of a request; which credential it used decides what it may do. */
export type Principal = { kind: 'api-key'; accountId: number; keyId: string } | { kind: 'session'; accountId: number; sessionId: string };
