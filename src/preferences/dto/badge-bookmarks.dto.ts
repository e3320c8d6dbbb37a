import { ApiProperty } from '@nestjs/swagger';
import { BOOKMARKS_PER_ACCOUNT } from '../preference-limits';

export const BADGE_ID_PATTERN = /^bdg_\d{1,10}$/;

export class V1AccountBookmarkBadgeRequestBody {
  @ApiProperty({ maxLength: 14, pattern: BADGE_ID_PATTERN.source, example: 'bdg_1', description: 'The badge id (`bdg_<n>`).' })
  badgeId: string;

  @ApiProperty({
    example: true,
    description: `Whether to bookmark or unbookmark the badge. An account holds at most ${BOOKMARKS_PER_ACCOUNT} bookmarks (one more is a 422).`,
  })
  bookmark: boolean;
}

/** The answer of account.bookmarkBadge: nothing but its `$schema`. */
export class V1AccountBookmarkBadgeResponseBody {}

export class V1AccountBadgeBookmark {
  @ApiProperty({ example: 'bdg_123', description: 'The badge id' }) badgeId: string;
  @ApiProperty({ format: 'date-time', description: 'The time the badge was bookmarked' }) bookmarkedAt: string;
}

export class V1AccountBadgeBookmarksResponseBody {
  @ApiProperty({ type: [V1AccountBadgeBookmark], description: `Newest first; at most ${BOOKMARKS_PER_ACCOUNT}.` })
  bookmarks: V1AccountBadgeBookmark[];
}
