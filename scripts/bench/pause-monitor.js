'use strict';
/**
 * `bench:scale --pauses FILE`: preloaded into the API (`node -r`), it appends one line to FILE every 5 s: the event
 * loop's delay (p50 / p99 / max, sampled every 2 ms), the garbage collector's pauses by kind (count, total, longest)
 * and the heap. It tells whether a tail latency is the API's own (a long GC pause, a blocked loop) or the host's
 * (the loop free while requests waited for a core). Plain JavaScript: the API runs compiled, without ts-node.
 */
const { appendFileSync } = require('node:fs');
const { constants, monitorEventLoopDelay } = require('node:perf_hooks');

const file = process.env.PAUSE_MONITOR_FILE;
if (file) {
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
  };
  let pauses = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail && entry.detail.kind] || 'other';
      const pause = (pauses[kind] = pauses[kind] || { count: 0, totalMs: 0, maxMs: 0 });
      pause.count++;
      pause.totalMs += entry.duration;
      pause.maxMs = Math.max(pause.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  setInterval(() => {
    const gc = Object.entries(pauses).map(([kind, p]) => `${kind} ${p.count}× ${Math.round(p.totalMs)} ms (max ${p.maxMs.toFixed(1)})`);
    const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
    const loop = `loop delay p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)} ms`;
    appendFileSync(file, `${new Date().toISOString()} pid ${process.pid} ${loop}; gc ${gc.join(', ') || 'none'}; heap ${heapMb} MB\n`);
    pauses = {};
    delay.reset();
  }, 5000).unref();
}
