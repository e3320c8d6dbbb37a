import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { TAG_EDITOR_ROLES, requireAnyRole } from '../../account-records/role-check';
import { ProblemException, notFound, unprocessable } from '../../common/problem/problem.exception';
import {
  BadgeGetTagsResponseBody,
  BadgeSetTagsRequestBody,
  BadgeSetTagsResponseBody,
  BadgeTag,
  TagChoice,
  V1BadgeListTagsResponseBody,
} from '../dto/tags.dto';
import { SetRemoveDesignTag, V1BadgeTagBadgeRequestBody, V1BadgeTagBadgeResponseBody } from '../dto/tag-reviews.dto';
import { BadgeTagEditEntity } from '../entities/badge-tag-edit.entity';
import { TagEntity, TagKind } from '../entities/tag.entity';

export type TagSets = Record<'colors' | 'designs' | 'metadata', BadgeTag[]>;

/** New sets of a badge's tags: colours by id, designs and metadata by id or by name. */
export interface TagChanges {
  colors?: string[] | null;
  designs?: TagChoice[] | null;
  metadata?: TagChoice[] | null;
}

/**
 * The tag catalogue and the tags of each badge, edited with optimistic concurrency (`tagsVersion`: the badge row is
 * locked and its version compared, so of two edits from the same version exactly one wins). Every accepted edit is
 * kept in `badge_tag_edits` with its editor and time.
 */
@Injectable()
export class BadgeTagsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async catalogue(): Promise<V1BadgeListTagsResponseBody> {
    const tags = await this.all(this.dataSource.manager);
    return {
      colorTags: tags
        .filter((t) => t.kind === 'color')
        .map((t) => ({ id: t.id, name: t.name, hsl: t.hsl, group: t.colorGroup, hex: t.hex?.[0] ?? null, groupOwner: t.groupOwner })),
      designTags: tags.filter((t) => t.kind === 'design').map(({ id, name }) => ({ id, name })),
      metadataTags: tags.filter((t) => t.kind === 'metadata').map(({ id, name }) => ({ id, name })),
    };
  }

  async get(publicId: string, callerAccountId: number): Promise<BadgeGetTagsResponseBody> {
    await this.assertEditor(callerAccountId);
    const badge = await this.badge(this.dataSource.manager, publicId);
    const [sets, tags] = await Promise.all([this.sets(this.dataSource.manager, badge.id), this.all(this.dataSource.manager)]);
    return {
      badgeId: publicId,
      ...sets,
      tagsVersion: String(badge.tags_version),
      vocabulary: {
        colors: tags.filter((t) => t.kind === 'color').map((t) => ({ id: t.id, name: t.name, hex: t.hex })),
        designs: tags.filter((t) => t.kind === 'design').map(({ id, name }) => ({ id, name })),
        metadata: tags.filter((t) => t.kind === 'metadata').map(({ id, name }) => ({ id, name })),
      },
    };
  }

  async set(request: BadgeSetTagsRequestBody, callerAccountId: number): Promise<BadgeSetTagsResponseBody> {
    await this.assertEditor(callerAccountId);
    return this.dataSource.transaction(async (manager) => {
      const badge = await this.badge(manager, request.badgeId, true);
      if (String(badge.tags_version) !== request.expectedTagsVersion) {
        throw new ProblemException(409, `The tags changed since version ${request.expectedTagsVersion}; read them again.`);
      }
      const { sets, tagsVersion } = await this.apply(manager, badge.id, request, callerAccountId);
      // An edit by hand settles the badge's open tag review, if it has one (badge.claimTagReviews no longer offers it).
      const [closed]: [unknown[], number] = await manager.query(
        `UPDATE badge_tag_reviews SET completed_at = now(), reviewer_account_id = $2, skipped = false, claimed_until = NULL,
           review_version = review_version + 1
         WHERE badge_id = $1 AND completed_at IS NULL RETURNING badge_id`,
        [badge.id, callerAccountId],
      );
      return { ...sets, tagsVersion: String(tagsVersion), closedReview: closed.length > 0 };
    });
  }

  /** badge.tagBadge: adds and removes single tags (no version to send: adds and removes of different tags commute). */
  async tagBadge(request: V1BadgeTagBadgeRequestBody, callerAccountId: number): Promise<V1BadgeTagBadgeResponseBody> {
    await this.assertEditor(callerAccountId);
    return this.dataSource.transaction(async (manager) => {
      const badge = await this.badge(manager, request.badgeId, true);
      const current = await this.sets(manager, badge.id);
      const colors = new Set(current.colors.map((t) => t.id));
      for (const change of request.colors ?? []) {
        if (change.remove) colors.delete(change.id);
        else colors.add(change.id);
      }
      const changes: TagChanges = {
        colors: request.colors?.length ? [...colors] : null,
        designs: request.designs?.length ? await this.edited(manager, 'design', current.designs, request.designs) : null,
        metadata: request.metadata?.length ? await this.edited(manager, 'metadata', current.metadata, request.metadata) : null,
      };
      const { sets } = await this.apply(manager, badge.id, changes, callerAccountId);
      return { colorTags: sets.colors, designTags: sets.designs, metadataTags: sets.metadata };
    });
  }

  /** A set after single adds and removes, as choices for `apply` (a removed name is matched case-insensitively). */
  private async edited(manager: EntityManager, kind: TagKind, current: BadgeTag[], changes: SetRemoveDesignTag[]): Promise<TagChoice[]> {
    const ids = new Set(current.map((t) => t.id));
    const added: TagChoice[] = [];
    for (const change of changes) {
      if (!change.remove) {
        added.push({ id: change.id ?? undefined, name: change.name ?? undefined });
        continue;
      }
      const [tag]: { id: string }[] = change.id
        ? [{ id: change.id }]
        : await manager.query('SELECT id FROM tags WHERE kind = $1 AND name_key = $2', [kind, (change.name ?? '').trim().toLowerCase()]);
      if (tag) ids.delete(tag.id);
    }
    return [...[...ids].map((id) => ({ id })), ...added];
  }

  /** Refuses (403) a caller who may not edit tags. */
  assertEditor(accountId: number): Promise<void> {
    return requireAnyRole(this.dataSource, accountId, TAG_EDITOR_ROLES, 'Editing badge tags');
  }

  /**
   * Replaces the sets given (an omitted or null set is left alone), bumps the badge's `tagsVersion` and records the
   * edit in `badge_tag_edits`; the caller holds the badge row locked (see `badge`). Unknown colours or tag ids → 422.
   */
  async apply(
    manager: EntityManager,
    badgeId: number,
    changes: TagChanges,
    editorAccountId: number,
  ): Promise<{ sets: TagSets; tagsVersion: number }> {
    const colors = changes.colors ? await this.colors(manager, changes.colors) : null;
    const designs = changes.designs ? await this.choose(manager, 'design', changes.designs, 'designs') : null;
    const metadata = changes.metadata ? await this.choose(manager, 'metadata', changes.metadata, 'metadata') : null;
    if (colors) await this.replace(manager, badgeId, 'color', colors);
    if (designs) await this.replace(manager, badgeId, 'design', designs);
    if (metadata) await this.replace(manager, badgeId, 'metadata', metadata);
    // TypeORM returns [rows, affectedCount] for an UPDATE … RETURNING.
    const [[{ tags_version: tagsVersion }]]: [{ tags_version: number }[], number] = await manager.query(
      'UPDATE badges SET tags_version = tags_version + 1 WHERE id = $1 RETURNING tags_version',
      [badgeId],
    );
    await manager.insert(BadgeTagEditEntity, { badgeId, tagsVersion, editorAccountId, colors, designs, metadata });
    return { sets: await this.sets(manager, badgeId), tagsVersion };
  }

  /** The badge by public id (404 when unknown), its row locked FOR UPDATE when `lock`: edits of one badge queue. */
  async badge(manager: EntityManager, publicId: string, lock = false): Promise<{ id: number; tags_version: number }> {
    // `bdg_` takes up to ten digits, past the integer column: as a bigint parameter a larger id is just unknown.
    const [badge] = await manager.query(`SELECT id, tags_version FROM badges WHERE id = $1::bigint${lock ? ' FOR UPDATE' : ''}`, [
      Number(publicId.slice(4)),
    ]);
    if (!badge) throw notFound(`Badge ${publicId} is not known to this service.`);
    return badge;
  }

  private all(manager: EntityManager): Promise<TagEntity[]> {
    return manager.find(TagEntity, { order: { kind: 'ASC', name: 'ASC' } });
  }

  async sets(manager: EntityManager, badgeId: number): Promise<TagSets> {
    const rows: { id: string; name: string; kind: TagKind }[] = await manager.query(
      'SELECT t.id, t.name, t.kind FROM badge_tags bt JOIN tags t ON t.id = bt.tag_id WHERE bt.badge_id = $1 ORDER BY t.name',
      [badgeId],
    );
    const of = (kind: TagKind) => rows.filter((r) => r.kind === kind).map(({ id, name }) => ({ id, name }));
    return { colors: of('color'), designs: of('design'), metadata: of('metadata') };
  }

  private async colors(manager: EntityManager, ids: string[]): Promise<string[]> {
    const known: { id: string }[] = await manager.query(`SELECT id FROM tags WHERE kind = 'color' AND id = ANY($1)`, [ids]);
    const unknown = ids.filter((id) => !known.some((k) => k.id === id));
    if (unknown.length)
      throw unprocessable(
        'Unknown colour tags.',
        unknown.map((id) => ({ location: 'body.colors', message: 'unknown colour tag', value: id })),
      );
    return [...new Set(ids)];
  }

  /** Tag ids for choices by id (must exist, of this kind) or by name (found case-insensitively, else created). */
  private async choose(manager: EntityManager, kind: TagKind, choices: TagChoice[], field: string): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, choice] of choices.entries()) {
      if (choice.id) {
        const [tag] = await manager.query('SELECT id FROM tags WHERE id = $1 AND kind = $2', [choice.id, kind]);
        if (!tag)
          throw unprocessable(`Unknown ${kind} tag.`, [
            { location: `body.${field}[${i}].id`, message: `unknown ${kind} tag`, value: choice.id },
          ]);
        ids.push(tag.id);
      } else if (choice.name) {
        const name = choice.name.trim();
        const [tag] = await manager.query(
          `INSERT INTO tags (id, kind, name, name_key) VALUES ($1, $2, $3, $4)
           ON CONFLICT (kind, name_key) DO UPDATE SET name = tags.name RETURNING id`,
          [`tag_${randomBytes(5).toString('hex')}`, kind, name, name.toLowerCase()],
        );
        ids.push(tag.id);
      } else {
        throw unprocessable('A tag choice needs `id` or `name`.', [
          { location: `body.${field}[${i}]`, message: 'id or name is required', value: choice },
        ]);
      }
    }
    return [...new Set(ids)];
  }

  private async replace(manager: EntityManager, badgeId: number, kind: TagKind, tagIds: string[]): Promise<void> {
    await manager.query('DELETE FROM badge_tags bt USING tags t WHERE t.id = bt.tag_id AND bt.badge_id = $1 AND t.kind = $2', [
      badgeId,
      kind,
    ]);
    if (tagIds.length) await manager.query('INSERT INTO badge_tags (badge_id, tag_id) SELECT $1, unnest($2::text[])', [badgeId, tagIds]);
  }
}
