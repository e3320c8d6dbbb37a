import { mergeMap, Observable, Subscription } from 'rxjs';
import { JsonLogger } from '../logging/json-logger';

/** Facts handled at once per channel; more wait in the subscription's buffer. */
const PARALLEL_FACTS = 4;

/**
 * The subscriptions of a process that turns channel facts into work (webhook events, watches): each channel's facts
 * handled a few at a time, a failed one logged with `failure` and its channel, never ending the subscription.
 */
export class FactConsumer {
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly logger: JsonLogger,
    private readonly failure: string,
  ) {}

  consume<T>(channel: string, messages: Observable<T>, handle: (message: T) => Promise<void>): void {
    this.subscriptions.push(
      messages
        .pipe(
          mergeMap(
            (message) => handle(message).catch((error: unknown) => this.logger.error({ msg: this.failure, channel, error: String(error) })),
            PARALLEL_FACTS,
          ),
        )
        .subscribe(),
    );
  }

  stop(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }
}
