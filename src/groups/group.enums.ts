/** `GroupPrivacy` of the wire reference. The members list tells only public (listed) from hidden (HTTP 403). */
export const GROUP_PRIVACY = ['public', 'request_only', 'invite_only', 'hidden'] as const;
export type GroupPrivacy = (typeof GROUP_PRIVACY)[number];

/** The group leaderboards: groups by platform member count. */
export const GROUP_BOARDS = ['most_members'] as const;
export type GroupBoard = (typeof GROUP_BOARDS)[number];
