import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { STORED_NAME } from './image-formats';
import { ImageStore, StoredImage } from './image-store';

/**
 * The default image store: one file per name in a directory (IMAGE_STORE_DIR), created on the first write so
 * that processes which never store an image (the worker, most tests) leave no directory behind.
 *
 * A write goes to a temporary file in the same directory, is fsynced, renamed over the name (atomic on POSIX,
 * so a reader sees the old file or the whole new one, never a part) and the directory is fsynced so the rename
 * survives a crash. Names are checked against STORED_NAME so no name can reach outside the directory.
 */
export class DirectoryImageStore extends ImageStore {
  constructor(private readonly directory: string) {
    super();
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(name);
    await this.ensureDirectory();
    const temporary = join(this.directory, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const file = await open(temporary, 'wx', 0o644);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    await this.syncDirectory();
  }

  async open(name: string): Promise<StoredImage | null> {
    if (!STORED_NAME.test(name)) return null;
    const path = this.pathOf(name);
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!info?.isFile()) return null;
    return { body: createReadStream(path), size: info.size };
  }

  async delete(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }

  private pathOf(name: string): string {
    if (!STORED_NAME.test(name)) throw new Error(`not a stored image name: ${name}`);
    return join(this.directory, name);
  }

  private async ensureDirectory(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
  }

  private async syncDirectory(): Promise<void> {
    const directory = await open(this.directory, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }
}
