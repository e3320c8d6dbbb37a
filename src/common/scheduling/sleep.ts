/** Resolves after ms, or rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => (signal?.removeEventListener('abort', abort), resolve());
    const timer = setTimeout(done, ms);
    const abort = () => (clearTimeout(timer), reject(signal?.reason));
    signal?.addEventListener('abort', abort, { once: true });
  });
}
