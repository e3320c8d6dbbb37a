import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { STAFF_ROLES, hasAnyRole } from '../../account-records/role-check';
import { ProblemException, forbidden, notFound } from '../../common/problem/problem.exception';
import {
  BadgeClaimTagReviewsApp,
  BadgeClaimTagReviewsResponseBody,
  BadgeReviseTagReviewRequestBody,
  BadgeReviseTagReviewResponseBody,
  BadgeSubmitTagReviewRequestBody,
  BadgeSubmitTagReviewResponseBody,
  BadgeSuggestTags,
} from '../dto/tag-reviews.dto';
import { BadgeTagsService } from '../tags/badge-tags.service';
import { suggestTags } from './tag-suggestions';

/** How long a claim holds a review for its scout; after it, another scout may claim the review. */
export const CLAIM_SECONDS = 15 * 60;
/** Badges added to the review queue at most per claim, when too few open reviews are free. */
const FEED_SLICE = 200;
const DEFAULT_CLAIM = 10;

interface ReviewRow {
  completed_at: Date | null;
  claimed_by: number | null;
  reviewer_account_id: number | null;
  review_version: number;
}

/**
 * # Badge tag reviews
 *
 * Badge scouts review the tags of badges one by one. Every badge gets a review row (`badge_tag_reviews`), fed from
 * `badges` in id order a bounded slice at a time (from the highest id already fed: one index probe), so no request
 * scans the catalogue. badge.claimTagReviews claims open reviews for CLAIM_SECONDS with
 * `UPDATE … WHERE badge_id IN (SELECT … FOR UPDATE SKIP LOCKED)`: two scouts claiming at once lock disjoint rows,
 * and a row another claim committed meanwhile is re-checked against the claim conditions, so no review is ever
 * held by two scouts. A scout's own live claims are renewed. badge.submitTagReview settles a review the caller
 * holds (tags set through BadgeTagsService.apply, the same write as badge.setTags, or skipped); its
 * `reviewVersion` guards badge.reviseTagReview. A badge.setTags of an open review's badge settles it too.
 * Locks are taken badge row first, review row second, as badge.setTags does.
 */
@Injectable()
export class TagReviewsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tags: BadgeTagsService,
  ) {}

  async suggest(publicId: string, callerAccountId: number): Promise<BadgeSuggestTags> {
    await this.tags.assertEditor(callerAccountId);
    const badge = await this.tags.badge(this.dataSource.manager, publicId);
    const suggestions = (await suggestTags(this.dataSource.manager, [badge.id])).get(badge.id) ?? [];
    return {
      colors: suggestions.filter((s) => s.kind === 'color').map((s) => s.id),
      designs: suggestions.filter((s) => s.kind === 'design').map((s) => s.id),
    };
  }

  async claim(limit: number | undefined, callerAccountId: number): Promise<BadgeClaimTagReviewsResponseBody> {
    await this.tags.assertEditor(callerAccountId);
    const wanted = limit ?? DEFAULT_CLAIM;
    if ((await this.freeCount(wanted)) < wanted) await this.feed();
    const claimed: { badge_id: number; claimed_until: Date }[] = (
      await this.dataSource.query(
        `UPDATE badge_tag_reviews r SET claimed_by = $1, claimed_until = now() + make_interval(secs => $3)
          WHERE r.badge_id IN (
            SELECT badge_id FROM badge_tag_reviews
             WHERE completed_at IS NULL AND (claimed_until IS NULL OR claimed_until < now() OR claimed_by = $1)
             ORDER BY badge_id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING r.badge_id, r.claimed_until`,
        [callerAccountId, wanted, CLAIM_SECONDS],
      )
    )[0];
    const vocabulary: { id: string; kind: string; name: string; hex: string[] | null }[] = await this.dataSource.query(
      'SELECT id, kind, name, hex FROM tags ORDER BY kind, name',
    );
    return {
      apps: await this.claimedApps(claimed),
      colors: vocabulary.filter((t) => t.kind === 'color').map(({ id, name, hex }) => ({ id, name, hex })),
      designs: vocabulary.filter((t) => t.kind === 'design').map(({ id, name }) => ({ id, name })),
      metadata: vocabulary.filter((t) => t.kind === 'metadata').map(({ id, name }) => ({ id, name })),
    };
  }

  async submit(request: BadgeSubmitTagReviewRequestBody, callerAccountId: number): Promise<BadgeSubmitTagReviewResponseBody> {
    await this.tags.assertEditor(callerAccountId);
    return this.dataSource.transaction(async (manager) => {
      const badgeId = await this.lockBadge(manager, request.badgeId);
      const review = badgeId === null ? undefined : await this.lockReview(manager, badgeId);
      if (badgeId === null || !review || review.completed_at)
        throw new ProblemException(409, `Badge ${request.badgeId} has no open tag review; claim reviews with badge.claimTagReviews.`);
      // An expired claim nobody else took is still the caller's: finishing late loses nothing.
      if (review.claimed_by !== callerAccountId)
        throw new ProblemException(409, `The review of ${request.badgeId} is not claimed by you; claim it with badge.claimTagReviews.`);
      const skipped = request.skip ?? false;
      const sets = skipped
        ? await this.tags.sets(manager, badgeId)
        : (await this.tags.apply(manager, badgeId, request, callerAccountId)).sets;
      const version = await this.settle(manager, badgeId, callerAccountId, skipped, skipped ? (request.skipReason ?? null) : null);
      return { ...sets, reviewVersion: String(version), skipped };
    });
  }

  async revise(request: BadgeReviseTagReviewRequestBody, callerAccountId: number): Promise<BadgeReviseTagReviewResponseBody> {
    await this.tags.assertEditor(callerAccountId);
    return this.dataSource.transaction(async (manager) => {
      const badgeId = await this.lockBadge(manager, request.badgeId);
      const review = badgeId === null ? undefined : await this.lockReview(manager, badgeId);
      if (badgeId === null || !review?.completed_at) throw notFound(`Badge ${request.badgeId} has no completed tag review.`);
      // The scout who reviewed corrects their review; staff correct anyone's.
      if (review.reviewer_account_id !== callerAccountId && !(await hasAnyRole(manager, callerAccountId, STAFF_ROLES)))
        throw forbidden('Only the scout who reviewed the badge, or staff, may revise the review.');
      if (String(review.review_version) !== request.expectedReviewVersion)
        throw new ProblemException(409, `The review changed since version ${request.expectedReviewVersion}; read it again.`);
      const { sets } = await this.tags.apply(manager, badgeId, request, callerAccountId);
      const [[{ review_version: version }]]: [{ review_version: number }[], number] = await manager.query(
        `UPDATE badge_tag_reviews SET review_version = review_version + 1, skipped = false, skip_reason = NULL
          WHERE badge_id = $1 RETURNING review_version`,
        [badgeId],
      );
      return { ...sets, reviewVersion: String(version), skipped: false };
    });
  }

  /** Open reviews free to claim, counted up to `atMost` (a bounded walk of the open-review index). */
  private async freeCount(atMost: number): Promise<number> {
    const [{ free }]: { free: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS free FROM (SELECT 1 FROM badge_tag_reviews
         WHERE completed_at IS NULL AND (claimed_until IS NULL OR claimed_until < now()) LIMIT $1) f`,
      [atMost],
    );
    return free;
  }

  /** Adds the next slice of badges to the queue (concurrent feeds insert the same ids once). */
  private async feed(): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO badge_tag_reviews (badge_id)
       SELECT id FROM badges WHERE id > (SELECT coalesce(max(badge_id), 0) FROM badge_tag_reviews) ORDER BY id LIMIT $1
       ON CONFLICT (badge_id) DO NOTHING`,
      [FEED_SLICE],
    );
  }

  private async claimedApps(claimed: { badge_id: number; claimed_until: Date }[]): Promise<BadgeClaimTagReviewsApp[]> {
    if (!claimed.length) return [];
    const ids = claimed.map((c) => c.badge_id);
    const until = new Map(claimed.map((c) => [c.badge_id, c.claimed_until]));
    const [badges, suggestions] = await Promise.all([
      this.dataSource.query(
        `SELECT b.id, coalesce(b.app_id, 0) AS app_id, coalesce(a.name, '') AS app_name, b.name, b.image, b.is_foil,
                b.base_level, b.scarcity::float8 AS scarcity
           FROM badges b LEFT JOIN apps a ON a.app_id = b.app_id WHERE b.id = ANY($1::int[]) ORDER BY b.app_id, b.id`,
        [ids],
      ) as Promise<
        {
          id: number;
          app_id: number;
          app_name: string;
          name: string;
          image: string;
          is_foil: boolean;
          base_level: number;
          scarcity: number;
        }[]
      >,
      suggestTags(this.dataSource.manager, ids),
    ]);
    const apps = new Map<number, BadgeClaimTagReviewsApp>();
    for (const b of badges) {
      const app = apps.get(b.app_id) ?? { appId: b.app_id, appName: b.app_name, badges: [] };
      apps.set(b.app_id, app);
      const suggested = suggestions.get(b.id) ?? [];
      app.badges!.push({
        badgeId: `bdg_${b.id}`,
        claimedUntil: until.get(b.id)!,
        imageUrl: b.image,
        isFoil: b.is_foil,
        level: b.base_level,
        name: b.name,
        scarcity: b.scarcity,
        suggestions: {
          autoAudit: false,
          autoColors: [],
          autoDesigns: [],
          colors: suggested.filter((s) => s.kind === 'color').map((s) => ({ id: s.id, coverage: s.share })),
          designs: suggested.filter((s) => s.kind === 'design').map((s) => ({ id: s.id, confidence: s.share })),
          proposedDesigns: [],
        },
      });
    }
    return [...apps.values()];
  }

  /** The badge row locked (the order badge.setTags takes too), or null for a badge this service does not know. */
  private async lockBadge(manager: EntityManager, publicId: string): Promise<number | null> {
    const [row]: { id: number }[] = await manager.query('SELECT id FROM badges WHERE id = $1::bigint FOR UPDATE', [
      Number(publicId.slice(4)),
    ]);
    return row?.id ?? null;
  }

  private async lockReview(manager: EntityManager, badgeId: number): Promise<ReviewRow | undefined> {
    const [row]: ReviewRow[] = await manager.query(
      'SELECT completed_at, claimed_by, reviewer_account_id, review_version FROM badge_tag_reviews WHERE badge_id = $1 FOR UPDATE',
      [badgeId],
    );
    return row;
  }

  private async settle(
    manager: EntityManager,
    badgeId: number,
    reviewer: number,
    skipped: boolean,
    reason: string | null,
  ): Promise<number> {
    const [[{ review_version: version }]]: [{ review_version: number }[], number] = await manager.query(
      `UPDATE badge_tag_reviews SET completed_at = now(), reviewer_account_id = $2, skipped = $3, skip_reason = $4,
              claimed_until = NULL, review_version = review_version + 1
        WHERE badge_id = $1 RETURNING review_version`,
      [badgeId, reviewer, skipped, reason],
    );
    return version;
  }
}
