/** The account leaderboards (`Leaderboard B`) and how each one scores an account. */
export const ACCOUNT_BOARDS = [
  'apps',
  'app_playtime',
  'app_valid_playtime',
  'awards_given',
  'awards_received',
  'bans',
  'game_bans',
  'vac_bans',
  'donations',
  'foil_badges',
  'normal_badges',
  'badges',
  'playtime',
  'valid_playtime',
  'points_given',
  'points_received',
  'steam_sets',
  'xp',
  'badge_completion_time',
  'badge_highest_level',
] as const;
export type AccountBoard = (typeof ACCOUNT_BOARDS)[number];

/** Boards scored by a column of the account itself. Playtime is not audited, so "valid" playtime is all of it. */
export const COLUMN_BOARDS: Partial<Record<AccountBoard, string>> = {
  apps: 'apps',
  awards_given: 'awards_given',
  awards_received: 'awards_received',
  bans: 'bans',
  game_bans: 'game_bans',
  vac_bans: 'vac_bans',
  donations: 'donated',
  foil_badges: 'foil_badges',
  normal_badges: 'normal_badges',
  badges: 'badges',
  playtime: 'playtime',
  valid_playtime: 'playtime',
  points_given: 'points_given',
  points_received: 'points_received',
  steam_sets: 'site_score',
  xp: 'xp',
};

/** Boards of the profile's ranks that the engine keeps: every column board. */
export const PROFILE_RANK_BOARDS = Object.keys(COLUMN_BOARDS);

export const APP_BOARDS: AccountBoard[] = ['app_playtime', 'app_valid_playtime'];
export const BADGE_BOARDS: AccountBoard[] = ['badge_completion_time', 'badge_highest_level'];

/** The boards of the ranks in a profile (`Leaderboard A`): every board but the per-badge ones. */
export const RANK_BOARDS = ACCOUNT_BOARDS.filter((board) => !BADGE_BOARDS.includes(board));

/** The boards `leaderboard.previewAccountRank` takes (`Leaderboard C`): the column boards but valid playtime. */
export const PREVIEW_BOARDS = ACCOUNT_BOARDS.filter((board) => COLUMN_BOARDS[board] && board !== 'valid_playtime');

/** The widest window one request may ask for. */
export const MAX_WINDOW = 100;
export const DEFAULT_WINDOW = 10;

/** The boards `leaderboard.getChanges` measures (`Leaderboard D`): every column board. */
export const CHANGE_BOARDS = ACCOUNT_BOARDS.filter((board) => COLUMN_BOARDS[board]);

/** The counter an update records before and after itself for a board, when it records one. */
export const SNAPSHOT_COUNTERS: Partial<Record<AccountBoard, string>> = {
  apps: 'apps',
  bans: 'bans',
  game_bans: 'gameBans',
  vac_bans: 'vacBans',
  foil_badges: 'foilBadges',
  normal_badges: 'normalBadges',
  badges: 'badges',
  playtime: 'playtime',
  valid_playtime: 'playtime',
  steam_sets: 'siteScore',
  xp: 'xp',
};
