/** Word lists for synthetic names (apps, cards, personas). Plain ASCII letters so vanity names stay `^[a-z0-9]+$`. */

export const ADJECTIVES = [
  'Silent', 'Crimson', 'Hidden', 'Broken', 'Golden', 'Iron', 'Lost', 'Frozen', 'Burning', 'Ancient',
  'Electric', 'Hollow', 'Savage', 'Lucky', 'Quiet', 'Rapid', 'Shadow', 'Stellar', 'Toxic', 'Wild',
  'Cosmic', 'Dark', 'Neon', 'Rusty', 'Sacred', 'Sunken', 'Velvet', 'Wicked', 'Arcane', 'Bitter',
  'Brave', 'Cursed', 'Distant', 'Eternal', 'Fallen', 'Gentle', 'Grim', 'Infinite', 'Jade', 'Mystic',
] as const;

export const NOUNS = [
  'Fox', 'Dragon', 'Knight', 'Harbor', 'Forest', 'Engine', 'Crown', 'Comet', 'Tower', 'Garden',
  'Wolf', 'Raven', 'Citadel', 'River', 'Storm', 'Blade', 'Orbit', 'Lantern', 'Summit', 'Voyage',
  'Golem', 'Kingdom', 'Meadow', 'Pirate', 'Reactor', 'Serpent', 'Temple', 'Vault', 'Wanderer', 'Zephyr',
  'Anchor', 'Beacon', 'Canyon', 'Dungeon', 'Falcon', 'Glacier', 'Hunter', 'Island', 'Jester', 'Labyrinth',
] as const;

export const SUFFIXES = ['', '', '', ' II', ' III', ': Remastered', ' Online', ' Tactics', ' Chronicles', ' Legends'] as const;

export const HANDLE_PARTS = [
  'ace', 'bolt', 'cat', 'dusk', 'echo', 'frost', 'ghost', 'hawk', 'ion', 'jinx',
  'kilo', 'lynx', 'moss', 'nova', 'onyx', 'pixel', 'quill', 'rogue', 'sage', 'tank',
  'umbra', 'vex', 'wisp', 'xeno', 'yeti', 'zed', 'byte', 'clutch', 'drift', 'ember',
] as const;

export const FIRST_NAMES = [
  'Alex', 'Maria', 'Jonas', 'Lea', 'Chen', 'Olga', 'Pedro', 'Aiko', 'Liam', 'Sara',
  'Mateo', 'Ines', 'Noah', 'Emma', 'Ivan', 'Yuki', 'Omar', 'Nina', 'Lucas', 'Zoe',
] as const;

export const LAST_NAMES = [
  'Smith', 'Garcia', 'Muller', 'Rossi', 'Wang', 'Petrov', 'Silva', 'Tanaka', 'Novak', 'Kim',
  'Jensen', 'Dubois', 'Nowak', 'Santos', 'Costa', 'Berg', 'Lopez', 'Ivanova', 'Brown', 'Ali',
] as const;
