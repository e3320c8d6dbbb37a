import { ApiProperty } from '@nestjs/swagger';
import { AccountSearch } from '../../account-records/dto/account-search.dto';

/** Games whose badge pages one request reads at most (those with the most playtime): each page is one platform call. */
export const DROPS_GAMES_PER_REQUEST = 25;

export class V1AccountGetDropsWorthRequestBody extends AccountSearch {}

export class V1DropsGame {
  @ApiProperty({ type: 'integer', example: 440 }) appId: number;
  @ApiProperty({ description: "The app’s name ('' when the service has not read it)." }) appName: string;
  @ApiProperty({ type: 'integer', description: 'Minutes played, as the library last read says.' }) playtime: number;
  @ApiProperty({ type: 'integer', description: 'Normal cards in the app’s set.' }) setSize: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Card drops the game has left, as the platform’s badge page of the game says; null when the page was not read ' +
      '(see `pendingGames`) or does not say (a game the platform no longer lists for the account).',
  })
  dropsRemaining: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'When the badge page was read, Unix milliseconds; null: not read.' })
  dropsReadAt: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'USD cents, rounded: the mean lowest sell listing of the set’s normal cards that are listed; null: none is.',
  })
  meanCardPrice: number | null;

  @ApiProperty({ type: 'integer', description: 'Normal cards of the set with a lowest sell listing (the mean’s cards).' })
  pricedCards: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'USD cents, rounded: expected worth of the drops left, `dropsRemaining` × the exact mean (a drop is a uniformly ' +
      'random normal card of the set); null when either is unknown.',
  })
  worth: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The oldest card quote of the mean, Unix milliseconds.' })
  pricesUpdatedAt: number | null;
}

export class V1DropsTotals {
  @ApiProperty({ type: 'integer', description: 'Games of the library with trading cards (all of them).' }) gamesWithCards: number;
  @ApiProperty({
    type: 'integer',
    description: `Games answered: the ones with cards and the most playtime, at most ${DROPS_GAMES_PER_REQUEST}.`,
  })
  gamesRead: number;
  @ApiProperty({
    type: 'integer',
    description: 'Games answered whose badge page could not be read this time (the platform’s pace or availability): ask again.',
  })
  pendingGames: number;
  @ApiProperty({ type: 'integer', description: 'The sum of the known `dropsRemaining`.' }) dropsRemaining: number;
  @ApiProperty({ type: 'integer', description: 'USD cents: the sum of the known `worth`s.' }) worth: number;
  @ApiProperty({ type: 'integer', description: 'Games with drops left but no priced card: left out of `worth`.' }) unpricedGames: number;
}

export class V1AccountGetDropsWorthResponseBody {
  @ApiProperty({ type: [V1DropsGame], description: 'By playtime, most first.' }) games: V1DropsGame[];
  @ApiProperty({ type: V1DropsTotals }) totals: V1DropsTotals;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The oldest card quote used, Unix milliseconds.' })
  pricesUpdatedAt: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The oldest badge page read used, Unix milliseconds.' })
  dropsReadAt: number | null;
}
