import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Metadatas = ReturnType<Storage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<Storage['groupByPropertyName']>;

/** Storages already memoized (the process has one; a second install must not wrap the wrapper). */
const memoized = new WeakSet<Storage>();

/**
 * # class-validator's metadata look-ups, memoized
 *
 * For every object it validates, class-validator's `getTargetValidationMetadatas` filters the class's decorators and
 * then walks every class it has metadata for (`instanceof` against each) to find inherited ones, and
 * `groupByPropertyName` regroups the result: on each request, for each nested object (typestack/class-validator#2686).
 * An `account.getInfo` body spent 14 µs in the pipe, half of it there, and the look-ups allocated ~12 kB per request
 * (docs/performance-history.md, "Earlier: a noisier machine").
 *
 * Both answers depend only on their arguments and on the decorators registered, and a class's decorators, its
 * ancestors' included, are all registered when the class is defined, before it can be validated. A class defined
 * later registers its own metadata only, so no earlier answer changes. The answers are kept per class (WeakMap) and
 * per argument tuple, and the grouping per answer (by identity: class-validator reads both, never writes them).
 * Installed once, by the global pipe's constructor (WireValidationPipe), when every module's DTOs are loaded.
 */
export function memoizeValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (memoized.has(storage)) return;
  memoized.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const byTarget = new WeakMap<object, Map<string, Metadatas>>();
  const groups = new WeakMap<Metadatas, Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groupNames) => {
    // Group names hold no NUL in practice; the key only has to tell argument tuples apart.
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groupNames?.join('\u0000') ?? '\u0001'}`;
    let answers = byTarget.get(target);
    if (!answers) byTarget.set(target, (answers = new Map()));
    let metadatas = answers.get(key);
    if (!metadatas) {
      metadatas = lookUp(target, schema, always, strictGroups, groupNames);
      answers.set(key, metadatas);
      groups.set(metadatas, group(metadatas));
    }
    return metadatas;
  };

  // The grouping of a memoized answer is kept with it; any other array is grouped afresh, as before.
  storage.groupByPropertyName = (metadatas) => groups.get(metadatas) ?? group(metadatas);
}
