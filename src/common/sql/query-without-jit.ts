import { DataSource } from 'typeorm';

/**
 * Runs one statement with PostgreSQL's JIT compilation off. A statement the planner costs above `jit_above_cost`
 * (the set-based reads over much of the population: a changes snapshot's movers) is otherwise compiled on every
 * execution, prepared or not: ~0.2–0.4 s of LLVM work for a plan of index probes that it does not make faster
 * (docs/performance-history.md). Request-path statements stay far below that cost and never compile.
 */
export function queryWithoutJit<T>(dataSource: DataSource, sql: string, parameters: unknown[]): Promise<T[]> {
  return dataSource.transaction(async (manager) => {
    await manager.query('SET LOCAL jit = off');
    return (await manager.query(sql, parameters)) as T[];
  });
}
