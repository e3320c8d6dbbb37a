import { JsonLogger } from '../logging/json-logger';

/**
 * A job run every `everyMs` in this process, never two rounds at once (a slow round delays the next instead of
 * overlapping it); a failed round is logged and the next one runs as usual. `stop` waits for a round under way, so
 * a process shutting down does not close its connections under it.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly logger: JsonLogger,
    private readonly failure: string,
    private readonly everyMs: number,
    private readonly round: () => Promise<unknown>,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.round()
        .then(() => undefined)
        .catch((error: Error) => this.logger.warn({ msg: this.failure, error: error.message }))
        .finally(() => (this.running = null));
    }, this.everyMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
