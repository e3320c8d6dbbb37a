/** quickselect 2 (CommonJS, no types of its own): rearranges `array` so that `array[k]` is its k-th smallest. */
declare module 'quickselect' {
  function quickselect<T>(
    array: ArrayLike<T> & { [index: number]: T },
    k: number,
    left?: number,
    right?: number,
    compare?: (a: T, b: T) => number,
  ): void;
  export default quickselect;
}
