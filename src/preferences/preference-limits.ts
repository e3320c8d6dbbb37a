/**
 * The bounds of an account's preferences, stated in the operations' OpenAPI descriptions and enforced under a lock on
 * the account, so concurrent writes cannot overshoot them. A key-value store of 200 short entries and a list of 500
 * bookmarks are far more than a settings page needs, and keep an account's rows to a few hundred kilobytes at most.
 */
export const KV_LIMITS = {
  /** Entries one account may hold, across its namespaces. */
  entriesPerAccount: 200,
  /** UTF-8 bytes of one value. */
  valueBytes: 16 * 1024,
  /** UTF-8 bytes of the values of one namespace together. */
  namespaceBytes: 64 * 1024,
  /** UTF-8 bytes of all the account's values together. */
  accountBytes: 256 * 1024,
};

/** Namespaces and keys are names, not data: ASCII letters, digits and a few separators, never first. */
export const KV_NAMESPACE_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}$/;
export const KV_KEY_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.:@/+-]{0,127}$/;

/** Badges one account may bookmark. */
export const BOOKMARKS_PER_ACCOUNT = 500;

/** Keys of the transaction-scoped advisory locks taken per account (`pg_advisory_xact_lock(class, account)`). */
export const KV_LOCKS = 0x4b560001;
export const BOOKMARK_LOCKS = 0x424b0001;
