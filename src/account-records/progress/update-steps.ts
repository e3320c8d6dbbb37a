/** Pipeline steps in run order, as reported by `account.updateProgress` (the refresh pipeline walks them). */
export const UPDATE_STEPS = ['profile', 'bans', 'badges', 'games', 'friends', 'groups', 'inventory', 'save'] as const;
export type UpdateStepName = (typeof UPDATE_STEPS)[number];
