/**
 * # Upload limits: what one account, and all of them at once, may make the API decode
 *
 * Re-encoding is the costliest work a request can ask of the API process (a 1.4 MB animated WebP of 512×512×120
 * frames took 1.35 s of CPU and ~126 MB of pixels), so three bounds hold it:
 *
 * - **Per account** (`IMAGE_UPLOADS_PER_HOUR`, `IMAGE_UPLOADS_PER_DAY`): `account.uploadImages` requests with images
 *   in any rolling hour and day, counted per account (ActionThrottle's sliding logs in Redis, shared by every API
 *   process), whatever session they come with: a new sign-in is not a new allowance. Past either: 429 with
 *   `Retry-After`. A refused (422) upload counts too: its decoding was spent all the same.
 * - **At once** (`IMAGE_REENCODE_CONCURRENCY`, `IMAGE_REENCODE_QUEUE`): per API process, this many requests' images
 *   are decoded and re-encoded at a time (p-limit), that many wait; one more is a 503 with `Retry-After` before any
 *   decoding. libvips spreads one image over the cores already, so more at once only adds memory.
 * - **Per image** (`IMAGE_PIXEL_FRAME_BUDGET`): width × height × frames, judged from the header before any pixel is
 *   allocated (ImageProcessor): past it a 422 naming the image.
 */
import { Inject, Injectable } from '@nestjs/common';
import pLimit from 'p-limit';
import { ActionThrottle, ThrottleRule } from '../../auth/throttle/action-throttle.service';
import { serviceUnavailable } from '../../common/problem/problem.exception';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

@Injectable()
export class UploadLimits {
  private readonly lane: pLimit.Limit;
  private readonly capacity: number;
  private readonly rules: ThrottleRule[];

  constructor(
    private readonly throttle: ActionThrottle,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const { reencodeConcurrency, reencodeQueue, uploadsPerHour, uploadsPerDay } = config.images;
    this.lane = pLimit(reencodeConcurrency);
    this.capacity = reencodeConcurrency + reencodeQueue;
    this.rules = [
      {
        action: 'image-uploads-hour',
        limit: uploadsPerHour,
        windowSeconds: 3600,
        detail: `An account may upload images ${uploadsPerHour} times an hour; retry later.`,
      },
      {
        action: 'image-uploads-day',
        limit: uploadsPerDay,
        windowSeconds: 86_400,
        detail: `An account may upload images ${uploadsPerDay} times a day; retry later.`,
      },
    ];
  }

  /** Counts one upload of the account against both windows: 429 with Retry-After past either. */
  async admit(accountId: number): Promise<void> {
    for (const rule of this.rules) await this.throttle.take(rule, accountId);
  }

  /** Runs `decode` in the re-encoding lane; 503 with Retry-After when the lane and its queue are full. */
  reencode<T>(decode: () => Promise<T>): Promise<T> {
    if (this.lane.activeCount + this.lane.pendingCount >= this.capacity)
      throw serviceUnavailable('Too many images are being processed; retry shortly.', 2);
    return this.lane(decode);
  }

  /** Requests decoding and waiting (tests and diagnostics). */
  state(): { active: number; waiting: number } {
    return { active: this.lane.activeCount, waiting: this.lane.pendingCount };
  }
}
