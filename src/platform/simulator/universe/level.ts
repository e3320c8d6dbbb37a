import { levelForXp, xpForLevel } from '../../levels';

export { levelForXp, xpForLevel };

export interface LevelInfo {
  playerXp: number;
  playerLevel: number;
  playerXpNeededToLevelUp: number;
  playerXpNeededCurrentLevel: number;
}

export function levelInfo(xp: number): LevelInfo {
  const level = levelForXp(xp);
  return {
    playerXp: xp,
    playerLevel: level,
    playerXpNeededToLevelUp: xpForLevel(level + 1) - xp,
    playerXpNeededCurrentLevel: xpForLevel(level),
  };
}
