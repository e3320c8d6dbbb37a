import { forbidden, unprocessable } from '../problem/problem.exception';

/** The request fields of the "rank window" paging style (the account and group leaderboards). */
export interface RankWindowRequest {
  start?: number | null;
  end?: number | null;
  goToLeaderboardRank?: number | null;
}

/**
 * The window a request asks for, as [start, end]: ranks are 1-based and both ends inclusive (`start` 0 reads as 1);
 * the default is `defaultWidth` ranks from `start`; `goToLeaderboardRank` centres a window of the same width on that
 * rank. `end` before `start` → 422; wider than `maxWidth` → 403 (the wire reference's "window beyond the allowance").
 */
export function rankWindow(request: RankWindowRequest, defaultWidth: number, maxWidth: number): [number, number] {
  let start = Math.max(1, request.start ?? 1);
  let end = request.end ?? start + defaultWidth - 1;
  if (end < start)
    throw unprocessable('`end` must not be before `start`.', [{ location: 'body.end', message: 'end < start', value: request.end }]);
  const span = end - start + 1;
  if (span > maxWidth) throw forbidden(`A window may hold at most ${maxWidth} ranks.`);
  if (request.goToLeaderboardRank) {
    start = Math.max(1, request.goToLeaderboardRank - Math.floor(span / 2));
    end = start + span - 1;
  }
  return [start, end];
}
