import { BeforeApplicationShutdown, Global, Injectable, Module } from '@nestjs/common';
import { MonoTypeOperatorFunction, Subject, takeUntil } from 'rxjs';

/**
 * Ends every open event stream when the application shuts down. An open stream holds its connection, so
 * without this the HTTP server would wait for clients that never leave and SIGTERM would not stop the API.
 */
@Injectable()
export class StreamLifecycle implements BeforeApplicationShutdown {
  private readonly closing = new Subject<void>();

  /** Completes the stream it is piped into at shutdown. */
  untilShutdown<T>(): MonoTypeOperatorFunction<T> {
    return takeUntil(this.closing);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing.next();
    this.closing.complete();
    // Let the ended responses flush, so their connections are idle (and closed) when the server closes.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

@Global()
@Module({ providers: [StreamLifecycle], exports: [StreamLifecycle] })
export class StreamLifecycleModule {}
