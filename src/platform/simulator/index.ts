export { PlatformSimulator, type SimulatorOptions } from './platform-simulator';
export { Universe, type UniverseOptions, type AccountSnapshot } from './universe/universe';
export type { AccountProfile } from './universe/profile';
export type { OwnedGameTruth } from './universe/games';
export type { CatalogueApp } from './universe/catalogue';
export { TimeModel, DEFAULT_EPOCH_MS, DEFAULT_TICK_MS } from './universe/time';
export { xpForLevel, levelForXp, levelInfo } from './universe/level';
export { FRIEND_HORIZON_TICKS } from './universe/friends';
