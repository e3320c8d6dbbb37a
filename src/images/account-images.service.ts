import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Image } from '../account-records/dto/profile-records.dto';
import { DecodedFields } from '../common/http/base64-fields';
import { JsonLogger } from '../common/logging/json-logger';
import { safeErrorFields } from '../common/logging/safe-error';
import { ErrorDetail, notFound, unprocessable } from '../common/problem/problem.exception';
import { V1AccountUpdateImage } from './dto/manage-images.dto';
import { V1AccountUploadedImage } from './dto/upload-images.dto';
import { AccountImageEntity } from './entities/account-image.entity';
import { contentTypeOfName, KEPT_PER_TYPE } from './image-formats';
import { ImageProcessor, ImageRejected, ProcessedImage } from './image-processor';
import { ChangeFeed } from '../change-feed/change-feed';
import { ImageStore, StoredImage } from './image-store';
import { UploadLimits } from './limits/upload-limits';

/**
 * Advisory lock spaces (two-int keys never collide with the single-bigint migration lock): one account's
 * uploads run one at a time (the "one active per type" swap), and a stored file is written, referenced and
 * reclaimed under a lock on its name, so a file is never deleted while a transaction is about to reference it.
 */
const ACCOUNT_LOCKS = 0x494d4701;
const FILE_LOCKS = 0x494d4702;

export interface ImageFile extends StoredImage {
  contentType: string;
  /** A strong validator: the name is the hash of the bytes. */
  etag: string;
}

/** account.uploadImages, the `images` of profiles and settings, and reading stored files back. */
@Injectable()
export class AccountImagesService {
  private readonly logger = new JsonLogger('AccountImagesService');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: ImageStore,
    private readonly processor: ImageProcessor,
    private readonly feed: ChangeFeed,
    private readonly limits: UploadLimits,
  ) {}

  /**
   * Checks every image before storing any (a refusal leaves the store and the database as they were), then
   * writes the files and the rows in one transaction; each upload becomes the active image of its type. `decoded`
   * holds the images' bytes when the body thread decoded them (`images.<i>.data`; the body then holds '').
   */
  async upload(accountId: number, items: V1AccountUploadedImage[] | null, decoded: DecodedFields = new Map()): Promise<Image[]> {
    if (!items?.length) return [];
    // Bounded per account, then at once (limits/upload-limits.ts): both before any image is decoded.
    await this.limits.admit(accountId);
    const processed = await this.limits.reencode(() => this.processAll(items, decoded));
    const rows = processed.map((image) => this.rowOf(accountId, image));
    let pruned: string[];
    try {
      pruned = await this.dataSource.transaction((manager) => this.storeAll(manager, accountId, processed, rows));
    } catch (error) {
      // Files written before the failure that no committed row references (best effort: the database may be away).
      await this.reclaim(processed.map((image) => image.fileName));
      throw error;
    }
    await this.feed.nudge([accountId]);
    await this.reclaim(pruned);
    return rows.map(toImage);
  }

  /** Every image of the account, by type, the active one first, then newest first. */
  async list(accountId: number): Promise<Image[]> {
    const rows = await this.dataSource.getRepository(AccountImageEntity).find({
      where: { accountId },
      order: { imageType: 'ASC', active: 'DESC', createdAt: 'DESC', imageId: 'ASC' },
    });
    return rows.map(toImage);
  }

  /**
   * account.updateImages: each named image (all the caller's own, else 404 and nothing changes) made active or not, in
   * one transaction under the account's lock. Activating one deactivates the others of its type first (the partial
   * unique index allows one active per type at every moment); two images of one type made active in one request
   * is a 422. Deactivating leaves the type with no active image: the profile then shows the platform's own.
   */
  async update(accountId: number, items: V1AccountUpdateImage[] | null): Promise<void> {
    if (!items?.length) return;
    const errors: ErrorDetail[] = [];
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.imageId)) errors.push({ location: `body.images[${index}].imageId`, message: `${item.imageId} is named twice` });
      seen.add(item.imageId);
    });
    if (errors.length) throw unprocessable('An image is named twice; nothing was changed.', errors);
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [ACCOUNT_LOCKS, accountId]);
      const rows: { image_id: string; image_type: string }[] = await manager.query(
        'SELECT image_id, image_type FROM account_images WHERE account_id = $1 AND image_id = ANY($2)',
        [accountId, [...seen]],
      );
      const typeOf = new Map(rows.map((row) => [row.image_id, row.image_type]));
      const missing = items.find((item) => !typeOf.has(item.imageId));
      if (missing) throw notFound(`This account has no image ${missing.imageId}; nothing was changed.`);
      const activated = new Map<string, number>();
      items.forEach((item, index) => {
        if (!item.active) return;
        const type = typeOf.get(item.imageId)!;
        if (activated.has(type))
          errors.push({ location: `body.images[${index}].active`, message: `a second ${type} made active: one per type can be` });
        activated.set(type, index);
      });
      if (errors.length) throw unprocessable('Only one image of each type can be active; nothing was changed.', errors);
      const off = items.filter((item) => !item.active).map((item) => item.imageId);
      const on = items.filter((item) => item.active).map((item) => item.imageId);
      await manager.query(
        `UPDATE account_images SET active = false
          WHERE account_id = $1 AND active AND (image_id = ANY($2) OR (image_type = ANY($3) AND NOT image_id = ANY($4)))`,
        [accountId, off, [...activated.keys()], on],
      );
      if (on.length)
        await manager.query('UPDATE account_images SET active = true WHERE account_id = $1 AND image_id = ANY($2)', [accountId, on]);
      await this.showActive(manager, accountId);
    });
    await this.feed.nudge([accountId]);
  }

  /**
   * account.deleteImages: the caller's images among `imageIds` are deleted (ids it does not own, or that are gone
   * already, change nothing: deleting is idempotent); a file no row refers to any more is then removed from the
   * store, under its name's lock, so a concurrent upload of the same bytes (which may be another account's) keeps it.
   */
  async delete(accountId: number, imageIds: string[] | null): Promise<void> {
    if (!imageIds?.length) return;
    const names = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [ACCOUNT_LOCKS, accountId]);
      const [deleted]: [{ file_name: string }[], number] = await manager.query(
        'DELETE FROM account_images WHERE account_id = $1 AND image_id = ANY($2) RETURNING file_name',
        [accountId, imageIds],
      );
      await this.showActive(manager, accountId);
      return deleted.map((row) => row.file_name);
    });
    await this.feed.nudge([accountId]);
    await this.reclaim(names);
  }

  /** A stored file by its served name; null for a name that is not one or is not stored. */
  async openFile(name: string): Promise<ImageFile | null> {
    const contentType = contentTypeOfName(name);
    if (!contentType) return null;
    const stored = await this.store.open(name);
    return stored && { ...stored, contentType, etag: `"${name.slice(0, name.indexOf('.'))}"` };
  }

  /** One image after the other: libvips already spreads one image over the cores. */
  private async processAll(items: V1AccountUploadedImage[], decoded: DecodedFields): Promise<ProcessedImage[]> {
    const errors: ErrorDetail[] = [];
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.type)) errors.push({ location: `body.images[${index}].type`, message: `a second ${item.type}: send one per type` });
      seen.add(item.type);
    });
    const processed: ProcessedImage[] = [];
    for (const [index, item] of items.entries()) {
      try {
        processed.push(await this.processor.process(decoded.get(`images.${index}.data`) ?? item.data, item.type));
      } catch (error) {
        if (!(error instanceof ImageRejected)) throw error;
        errors.push({ location: `body.images[${index}].data`, message: `The ${item.type} image ${error.message}.` });
      }
    }
    if (errors.length) {
      throw unprocessable(`${errors.length} image(s) refused; nothing was stored: ${errors[0].location}.`, errors);
    }
    return processed;
  }

  /** Inside the upload's transaction; returns the names of files whose rows were pruned. */
  private async storeAll(manager: EntityManager, accountId: number, images: ProcessedImage[], rows: AccountImageEntity[]) {
    await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [ACCOUNT_LOCKS, accountId]);
    const names = [...new Set(images.map((image) => image.fileName))].sort();
    for (const name of names) await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FILE_LOCKS, name]);
    // Content-addressed: rewriting a file that is already there writes the same bytes.
    for (const name of names) await this.store.put(name, images.find((image) => image.fileName === name)!.bytes);
    const types = images.map((image) => image.type);
    await manager.query('UPDATE account_images SET active = false WHERE account_id = $1 AND image_type = ANY($2) AND active', [
      accountId,
      types,
    ]);
    await manager.getRepository(AccountImageEntity).insert(rows);
    // TypeORM answers a DELETE … RETURNING with [rows, count].
    const [pruned]: [{ file_name: string }[], number] = await manager.query(
      `DELETE FROM account_images WHERE image_id IN (
         SELECT image_id FROM (
           SELECT image_id, row_number() OVER (PARTITION BY image_type ORDER BY active DESC, created_at DESC, image_id) AS n
             FROM account_images WHERE account_id = $1 AND image_type = ANY($2)) ranked
          WHERE n > $3)
       RETURNING file_name`,
      [accountId, types, KEPT_PER_TYPE],
    );
    await this.showActive(manager, accountId);
    return pruned.map((row) => row.file_name);
  }

  /**
   * The account's active background, mini background, avatar frame and animated avatar, by file name, on its row:
   * the profile and every card show them (`background`, … of the wire; '' without one), and the card copies read
   * them again from the feed entry. The platform has no source for these four; the `avatar` stays the platform's
   * hash (an uploaded avatar is the active `avatar` of `images`).
   */
  private async showActive(manager: EntityManager, accountId: number): Promise<void> {
    const active = (type: string) =>
      `COALESCE((SELECT i.file_name FROM account_images i WHERE i.account_id = a.account_id AND i.active AND i.image_type = '${type}'), '')`;
    await manager.query(
      `UPDATE accounts a SET background = ${active('background')}, mini_background = ${active('mini_background')},
              avatar_frame = ${active('avatar_frame')}, animated_avatar = ${active('animated_avatar')}
        WHERE a.account_id = $1`,
      [accountId],
    );
    await this.feed.record(manager, { kind: 'rows-changed', accountIds: [accountId] });
  }

  /** Deletes each named file that no row references, under its file lock (see FILE_LOCKS). Never throws. */
  private async reclaim(names: string[]): Promise<void> {
    for (const name of new Set(names)) {
      try {
        await this.dataSource.transaction(async (manager) => {
          await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FILE_LOCKS, name]);
          const referenced: unknown[] = await manager.query('SELECT 1 FROM account_images WHERE file_name = $1 LIMIT 1', [name]);
          if (!referenced.length) await this.store.delete(name);
        });
      } catch (error) {
        // An unreferenced file is harmless (never listed); it stays until an upload of the same bytes reuses it.
        this.logger.warn({ msg: 'image file not reclaimed', file: name, ...safeErrorFields(error) });
      }
    }
  }

  private rowOf(accountId: number, image: ProcessedImage): AccountImageEntity {
    return Object.assign(new AccountImageEntity(), {
      imageId: `img_${randomBytes(9).toString('base64url')}`,
      accountId,
      imageType: image.type,
      fileName: image.fileName,
      format: image.format,
      width: image.width,
      height: image.height,
      frames: image.frames,
      byteSize: image.bytes.length,
      active: true,
    });
  }
}

function toImage(row: AccountImageEntity): Image {
  return { active: row.active, fileName: row.fileName, imageId: row.imageId, imageType: row.imageType };
}
