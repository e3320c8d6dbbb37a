/**
 * # The API's young generation
 *
 * An API process at a million accounts holds a ~400 MB heap (the card replica, the friend graph, the books), and
 * whatever survives two of V8's young-generation collections is promoted into it: a request in flight, an export's
 * batch, a Redis reply waiting for its caller. With V8's default semi-space (1 MB, growing to 16 MB only when most of
 * it survives) those collections come every few hundred kilobytes of allocation, so objects that live a few
 * milliseconds were promoted; the old generation then filled with garbage and each scavenge took ~11 ms against its
 * references. With 64 MB semi-spaces a collection comes every 64 MB: a request is long finished by then.
 *
 * Measured at a million accounts (docs/performance.md, "The API's young generation"), the same build with and without:
 * `GET /health` 1.30× the answers per second, `stats.getStats` 1.31×, `leaderboard.getChanges` (30 d) 1.95×, with the
 * API's CPU per answer 0.67–0.37×; a whole-board export raised the RSS by +28 / +37 MB (NDJSON / CSV) against +7 / +71.
 * The price: up to 128 MB more resident memory per API process (both semi-spaces, touched as they are used).
 *
 * V8 reads these options only as a process starts, and NODE_OPTIONS refuses `--min-semi-space-size`: so they are on
 * the command lines that start an API process — start.ts's fork of main.js, `npm run start:api`, the image's CMD and
 * docker-compose.yml's api service (checked against this list by test/unit/young-generation.spec.ts). The cluster's
 * processes inherit them (cluster.fork keeps the primary's execArgv). The worker keeps V8's defaults: it holds no
 * population-sized state.
 */
export const API_V8_FLAGS: readonly string[] = ['--min-semi-space-size=64', '--max-semi-space-size=64'];
