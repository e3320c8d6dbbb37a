import 'reflect-metadata';
import { IsInt, IsOptional, IsString, getMetadataStorage, validate } from 'class-validator';
import { memoizeValidationMetadata } from '../../src/common/http/validation-metadata-memo';

class Base {
  @IsInt()
  count!: number;

  @IsString({ groups: ['admin'] })
  note?: string;
}

class Child extends Base {
  @IsString()
  name!: string;

  // Redeclared: the child's own rule is preferred over the inherited one of the same type.
  @IsInt()
  @IsOptional()
  override count: number = 0;
}

type Args = Parameters<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>;
const TUPLES: Args[] = [
  [Child, '', false, false, undefined],
  [Child, '', true, false, undefined],
  [Child, '', false, true, []],
  [Child, '', false, false, ['admin']],
  [Base, '', false, false, undefined],
  [Base, '', false, false, ['admin']],
];

/** What a look-up names: which rule of which class for which property, in order. */
const names = (metadatas: { target: unknown; propertyName: string; type: string; name?: string }[]) =>
  metadatas.map((m) => `${(m.target as { name: string }).name}.${m.propertyName}:${m.type}:${m.name ?? ''}`);

describe('memoizeValidationMetadata', () => {
  const storage = getMetadataStorage();
  const original = storage.getTargetValidationMetadatas.bind(storage);
  const originalGroup = storage.groupByPropertyName.bind(storage);
  const before = TUPLES.map((args) => names(original(...args)));
  memoizeValidationMetadata(storage);

  it('answers every argument tuple as class-validator does, the same array each time', () => {
    TUPLES.forEach((args, i) => {
      const first = storage.getTargetValidationMetadatas(...args);
      expect(names(first)).toEqual(before[i]);
      expect(storage.getTargetValidationMetadatas(...args)).toBe(first);
    });
    // The tuples differ in what they select: a key that ignored the groups would answer them alike.
    expect(before[0]).not.toEqual(before[3]);
  });

  it('keeps the grouping of a memoized answer, and groups any other array afresh', () => {
    const metadatas = storage.getTargetValidationMetadatas(...TUPLES[0]);
    const grouped = storage.groupByPropertyName(metadatas);
    expect(storage.groupByPropertyName(metadatas)).toBe(grouped);
    expect(Object.keys(grouped).sort()).toEqual(Object.keys(originalGroup(metadatas)).sort());
    const other = [...metadatas];
    expect(storage.groupByPropertyName(other)).not.toBe(grouped);
  });

  it('sees a class defined after it was installed, with the rules it inherits', async () => {
    class Late extends Base {
      @IsString()
      label!: string;
    }
    const args: Args = [Late, '', false, false, undefined];
    expect(names(storage.getTargetValidationMetadatas(...args))).toEqual(names(original(...args)));
    const late = Object.assign(new Late(), { count: 'three', label: 4, note: 'n' });
    const errors = await validate(late);
    expect(errors.map((e) => e.property).sort()).toEqual(['count', 'label']);
  });

  it('is installed once: a second call does not wrap the memo again', () => {
    const memo = storage.getTargetValidationMetadatas;
    memoizeValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(memo);
  });

  it('leaves validation as it was', async () => {
    const child = Object.assign(new Child(), { name: 7, count: 'x', note: 'n' });
    const errors = await validate(child);
    expect(errors.map((e) => e.property).sort()).toEqual(['count', 'name']);
    expect(await validate(Object.assign(new Child(), { name: 'ok', note: 'n' }))).toEqual([]);
  });
});
