import { GENERIC_PLAN_ARRAY_LENGTH, idsForGenericPlan } from '../../src/common/sql/generic-plan-ids';

describe('idsForGenericPlan', () => {
  it('pads fewer than ten ids to ten by repeating the last, leaving the given array as it is', () => {
    const given = [7, 3];
    expect(idsForGenericPlan(given)).toEqual([7, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    expect(given).toEqual([7, 3]);
    expect(idsForGenericPlan(['a'])).toHaveLength(GENERIC_PLAN_ARRAY_LENGTH);
  });

  it('passes ten ids or more, and none, as they are', () => {
    const ten = Array.from({ length: 10 }, (_, i) => i);
    expect(idsForGenericPlan(ten)).toEqual(ten);
    expect(idsForGenericPlan([...ten, 10])).toEqual([...ten, 10]);
    expect(idsForGenericPlan([])).toEqual([]);
  });
});
