import { Inject, Injectable } from '@nestjs/common';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { RenderedJson } from '../common/wire/rendered-json';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { V1LeaderboardListBadgesResponseBody } from './dto/leaderboard-badges.dto';
import { toLeaderboardBadge } from './mappers/leaderboard-badge.mapper';

interface Rendering {
  /** When it started, on the `tick` clock: a rendering started after a request arrived is fresh enough for it. */
  startedAt: number;
  answer: Promise<{ version: string; rendered: RenderedJson }>;
}

/**
 * `leaderboard.listBadges`: every tracked badge with holder statistics, read from the maintained statistics
 * (one row per badge), so each request sees the committed totals.
 *
 * The answer is the same for every caller and large (~860 badges, ~300 kB of JSON): reading, mapping and
 * serialising it per request cost ~18 ms of CPU. So it is rendered once per state of the listing and kept with
 * that state's version (`BadgeCatalogService.holdersVersion`); each request reads the current version (one cheap
 * statement) and gets the kept bytes when it is the same, so an answer is still exact as of the request, never
 * older. A version that differs renders again; concurrent requests share one rendering started after they arrived.
 * The controller sends it through SharedAnswers (src/common/shared-answers), so under load the version is read once
 * per shared answer's lifetime (1 s by default) rather than per request.
 */
@Injectable()
export class LeaderboardBadgesService {
  private tick = 0;
  private kept: { version: string; rendered: RenderedJson; startedAt: number } | null = null;
  private rendering: Rendering | null = null;

  constructor(
    private readonly catalog: BadgeCatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(): Promise<RenderedJson> {
    const arrivedAt = ++this.tick;
    const version = await this.catalog.holdersVersion();
    if (this.kept?.version === version) return this.kept.rendered;
    // A rendering started before this request may have read an older state: only a later one will do.
    if (!this.rendering || this.rendering.startedAt < arrivedAt) this.rendering = this.render();
    return (await this.rendering.answer).rendered;
  }

  private render(): Rendering {
    const startedAt = ++this.tick;
    const answer = this.catalog.withHolders().then(({ version, badges }) => {
      const body: V1LeaderboardListBadgesResponseBody = { badges: badges.map(toLeaderboardBadge) };
      return { version, rendered: RenderedJson.of(this.config.publicBaseUrl, V1LeaderboardListBadgesResponseBody.name, body) };
    });
    const rendering: Rendering = { startedAt, answer };
    void answer
      .then(
        // Renderings can finish out of order: the one started last is the likeliest to match the next request.
        (done) => {
          if (!this.kept || startedAt > this.kept.startedAt) this.kept = { ...done, startedAt };
        },
        // The requests waiting on a failed rendering get its error; nothing is kept.
        () => undefined,
      )
      .finally(() => {
        if (this.rendering === rendering) this.rendering = null;
      });
    return rendering;
  }
}
