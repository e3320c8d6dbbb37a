import { ChildProcess } from 'node:child_process';
import { cpuSpent, storesCpuMs, treeCpuMs } from './api-process';
import { measure, Measured, Sample } from './load';

/** CPU time per answer (ms): the API's, PostgreSQL's, Redis's and the load generator's own. */
export interface CpuPerAnswer {
  api: number;
  postgres: number;
  redis: number;
  client: number;
}

/** Sums the CPU the API, the stores and this process spend while `stretch` runs into `into`. */
export async function metered(api: ChildProcess, into: CpuPerAnswer, stretch: () => Promise<Sample>): Promise<Sample> {
  const [apiBefore, storesBefore, clientBefore] = [treeCpuMs(api.pid!), storesCpuMs(), process.cpuUsage()];
  const out = await stretch();
  const [stores, client] = [storesCpuMs(), process.cpuUsage(clientBefore)];
  into.api += treeCpuMs(api.pid!) - apiBefore;
  into.postgres += cpuSpent(storesBefore?.postgres, stores?.postgres);
  into.redis += cpuSpent(storesBefore?.redis, stores?.redis);
  into.client += (client.user + client.system) / 1000;
  return out;
}

export const perAnswer = (cpu: CpuPerAnswer, m: Measured): CpuPerAnswer => {
  const answers = Math.max(1, m.ok + m.errors);
  return { api: cpu.api / answers, postgres: cpu.postgres / answers, redis: cpu.redis / answers, client: cpu.client / answers };
};

/**
 * `GET /health` traffic for a while before anything is measured. After settled(), a freshly booted API still runs
 * slower for tens of seconds under load (at a million accounts the first `/health` measured after its own warm-up cost
 * 1.41 ms of API CPU per answer, the same measured last 0.65 ms: the collector still shrinking what the boot-time loads
 * left, and code not yet optimized), which made the operations measured first look slower at 1 M than at 100 k.
 */
export async function runIn(port: number, seconds: number): Promise<void> {
  await measure({ name: 'run-in', method: 'GET', path: '/health' }, port, '', Number.MAX_SAFE_INTEGER, seconds, 10_000);
}
