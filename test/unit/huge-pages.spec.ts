import { withHugePageMalloc } from '../../src/common/lifecycle/huge-pages';

describe('withHugePageMalloc', () => {
  it('should ask glibc for huge pages when nothing is tuned', () => {
    expect(withHugePageMalloc({ PATH: '/bin' })).toEqual({ PATH: '/bin', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
  });

  it("should add to an operator's other tunables and leave their own huge-page setting as it is", () => {
    expect(withHugePageMalloc({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).GLIBC_TUNABLES).toBe(
      'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1',
    );
    const off = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0' };
    expect(withHugePageMalloc(off)).toBe(off);
  });

  it('should not change the environment it is given', () => {
    const env = { GLIBC_TUNABLES: '' };
    expect(withHugePageMalloc(env).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=1');
    expect(env).toEqual({ GLIBC_TUNABLES: '' });
  });
});
