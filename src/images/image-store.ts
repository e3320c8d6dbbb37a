import type { Readable } from 'node:stream';

/** A stored image opened for reading. */
export interface StoredImage {
  body: Readable;
  size: number;
}

/**
 * Where image bytes live, by name. Names are content addresses (`<sha256>.<ext>`, see STORED_NAME), so a name
 * always means the same bytes: `put` may overwrite (it writes what is already there) and readers may cache
 * forever. What references a name is PostgreSQL's business (`account_images`), never the store's.
 *
 * The service binds DirectoryImageStore; an object store (S3 and the like) fits the same three calls — a PUT
 * that is durable when it returns, a streamed GET that tells a missing key from a failure, a DELETE that ignores
 * a missing key — and is bound in ImagesModule instead.
 */
export abstract class ImageStore {
  /** Stores the bytes under the name; durable when the promise resolves. */
  abstract put(name: string, bytes: Buffer): Promise<void>;

  /** The image, or null when no such name is stored. */
  abstract open(name: string): Promise<StoredImage | null>;

  /** Removes the name; a name that is not stored is not an error. */
  abstract delete(name: string): Promise<void>;
}
