import { setLogSink } from '../../src/common/logging/pino';

/**
 * The service's log lines in tests: dropped (jest's output is only jest's), or shown with TEST_LOGS=1.
 * jest.config.js installs this for every test file; a test that reads the logs captures them.
 */
const showLogs = Boolean(process.env.TEST_LOGS);
const quiet = showLogs ? null : () => undefined;

export function quietLogs(): void {
  setLogSink(quiet);
}

/** Collects every log line (one JSON object each) until `restore()`. */
export function captureLogs(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  setLogSink((chunk) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    if (showLogs) process.stdout.write(chunk);
  });
  return { lines, restore: quietLogs };
}
