/**
 * # Huge pages for the API's typed arrays
 *
 * The rank replica (ranks/replica) answers a profile's ~70 rank look-ups from ~230 MB of typed arrays at a million
 * accounts, and each look-up lands in a block no other request touched lately. With 4 kB pages each such block also
 * misses the TLB, and on a virtual machine whose host backs it with small pages that walk is itself a chain of memory
 * reads: on one machine of this project's kind a look-up took 2.8 µs with them and 1.3 µs with 2 MB pages, and the
 * profile's API CPU was lower in seven interleaved pairs of eight (docs/performance-history.md, "huge pages for the replica").
 *
 * Node allocates an ArrayBuffer's memory with glibc's malloc, which backs what it maps with transparent huge pages when
 * `glibc.malloc.hugetlb=1` is among GLIBC_TUNABLES (glibc ≥ 2.35, on hosts whose THP setting is `madvise` or
 * `always`; ignored elsewhere). glibc reads it once, as a process starts, so the process that starts the API and the
 * worker sets it for them: start.ts, the cluster primary (api-cluster.ts) and the image (Dockerfile). An operator's own
 * `glibc.malloc.hugetlb` setting is kept as it is (`=0` turns this off). `npm run start:api` and `start:worker` run
 * one process straight from npm, as in development: they get what the caller's environment says.
 */
const HUGE_PAGE_MALLOC = 'glibc.malloc.hugetlb=1';

/** `env` with malloc's huge pages asked for in GLIBC_TUNABLES, unless that variable already says something about them. */
export function withHugePageMalloc(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (tunables.split(':').some((tunable) => tunable.startsWith('glibc.malloc.hugetlb='))) return env;
  return { ...env, GLIBC_TUNABLES: tunables ? `${tunables}:${HUGE_PAGE_MALLOC}` : HUGE_PAGE_MALLOC };
}
