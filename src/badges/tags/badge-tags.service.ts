import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ProblemException, forbidden, notFound, unprocessable } from '../../common/problem/problem.exception';
import {
  BadgeGetTagsResponseBody,
  BadgeSetTagsRequestBody,
  BadgeSetTagsResponseBody,
  BadgeTag,
  TagChoice,
  V1BadgeListTagsResponseBody,
} from '../dto/tags.dto';
import { BadgeTagEditEntity } from '../entities/badge-tag-edit.entity';
import { TagEntity, TagKind } from '../entities/tag.entity';

/** Roles that may edit badge tags. */
const EDITORS = ['badge_scout', 'staff', 'owner'];

type TagSets = Record<'colors' | 'designs' | 'metadata', BadgeTag[]>;

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
      const colors = request.colors ? await this.colors(manager, request.colors) : null;
      const designs = request.designs ? await this.choose(manager, 'design', request.designs, 'designs') : null;
      const metadata = request.metadata ? await this.choose(manager, 'metadata', request.metadata, 'metadata') : null;
      if (colors) await this.replace(manager, badge.id, 'color', colors);
      if (designs) await this.replace(manager, badge.id, 'design', designs);
      if (metadata) await this.replace(manager, badge.id, 'metadata', metadata);
      const [{ tags_version: version }] = (
        await manager.query('UPDATE badges SET tags_version = tags_version + 1 WHERE id = $1 RETURNING tags_version', [badge.id])
      )[0];
      await manager.insert(BadgeTagEditEntity, {
        badgeId: badge.id,
        tagsVersion: version,
        editorAccountId: callerAccountId,
        colors,
        designs,
        metadata,
      });
      return { ...(await this.sets(manager, badge.id)), tagsVersion: String(version), closedReview: false };
    });
  }

  private async assertEditor(accountId: number): Promise<void> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM account_roles WHERE account_id = $1 AND role = ANY($2)', [
      accountId,
      EDITORS,
    ]);
    if (!rows.length) throw forbidden(`Editing badge tags needs one of the roles ${EDITORS.join(', ')}.`);
  }

  private async badge(manager: EntityManager, publicId: string, lock = false): Promise<{ id: number; tags_version: number }> {
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

  private async sets(manager: EntityManager, badgeId: number): Promise<TagSets> {
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
