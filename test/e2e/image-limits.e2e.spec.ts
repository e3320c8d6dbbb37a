import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { UploadLimits } from '../../src/images/limits/upload-limits';
import { startTestApp, TestContext } from '../support/test-app';

const b64 = (bytes: Buffer) => bytes.toString('base64');

function solid(width: number, height: number, red = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: red, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** An animated GIF of 16×16 frames. */
async function animated(frames: number): Promise<Buffer> {
  const pixels = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background: { r: (i * 60) % 256, g: 0, b: 0 } } })
        .raw()
        .toBuffer(),
    ),
  );
  return sharp(Buffer.concat(pixels), { raw: { width: 16, height: 16 * frames, channels: 3, pageHeight: 16 } })
    .gif({ loop: 0, delay: Array(frames).fill(100) })
    .toBuffer();
}

/**
 * The upload limits (src/images/limits): per account per hour, re-encodings at once, pixels × frames per image.
 * Small values so each is reached within a few requests.
 */
describe('image upload limits', () => {
  let ctx: TestContext;
  let storeDir: string;
  const upload = (token: string, images: unknown) =>
    ctx.http().post('/v1/account.uploadImages').set('Authorization', `Bearer ${token}`).send({ images });

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'bst-image-limits-'));
    ctx = await startTestApp('imagelimits', {
      IMAGE_STORE_DIR: storeDir,
      IMAGE_UPLOADS_PER_HOUR: '3',
      IMAGE_UPLOADS_PER_DAY: '10',
      IMAGE_PIXEL_FRAME_BUDGET: '1000',
      IMAGE_REENCODE_CONCURRENCY: '1',
      IMAGE_REENCODE_QUEUE: '0',
    });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(storeDir, { recursive: true, force: true });
  });

  it('should refuse an image past the pixel-times-frames budget with 422, storing nothing', async () => {
    const { sessionToken } = await ctx.session(1);
    await upload(sessionToken, [{ type: 'avatar', data: b64(await solid(16, 16)) }]).expect(200); // 256
    const still = await upload(sessionToken, [{ type: 'avatar', data: b64(await solid(40, 40)) }]); // 1600
    expect(still.status).toBe(422);
    expect(still.body.errors).toEqual([
      { location: 'body.images[0].data', message: expect.stringMatching(/1600 pixel-frames; at most 1000/) },
    ]);
    // 16 × 16 × 4 frames = 1024: the frames count.
    const moving = await upload(sessionToken, [{ type: 'animated_avatar', data: b64(await animated(4)) }]);
    expect(moving.status).toBe(422);
    expect(moving.body.errors[0].message).toMatch(/× 4 frame\(s\), 1024 pixel-frames/);
    const rows = await ctx.dataSource.query('SELECT image_type FROM account_images WHERE account_id = 1');
    expect(rows).toEqual([{ image_type: 'avatar' }]);
  });

  it('should limit uploads per account, whichever of its sessions sends them', async () => {
    const sessions = await Promise.all([ctx.session(2), ctx.session(2), ctx.session(2)]);
    const image = [{ type: 'avatar', data: b64(await solid(8, 8)) }];
    for (const { sessionToken } of sessions) await upload(sessionToken, image).expect(200);
    // A new sign-in is no new allowance.
    const fresh = await ctx.session(2);
    const refused = await upload(fresh.sessionToken, image);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.body.detail).toContain('3 times an hour');
    // Another account's uploads are its own.
    await upload((await ctx.session(3)).sessionToken, image).expect(200);
    // An empty upload decodes nothing and is not counted.
    await upload(fresh.sessionToken, []).expect(200);
  });

  it('should answer 503 with Retry-After while the re-encoding lane is full, before decoding anything', async () => {
    const limits = ctx.app.get(UploadLimits);
    let release!: () => void;
    // Another request's images hold the one slot (the queue is 0 deep).
    const held = limits.reencode(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      const { active, waiting } = limits.state();
      expect(active + waiting).toBe(1);
      const { sessionToken } = await ctx.session(4);
      const refused = await upload(sessionToken, [{ type: 'avatar', data: b64(await solid(8, 8)) }]);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await ctx.dataSource.query('SELECT 1 FROM account_images WHERE account_id = 4')).toEqual([]);
      release();
      await held;
      await upload(sessionToken, [{ type: 'avatar', data: b64(await solid(8, 8)) }]).expect(200);
    } finally {
      release?.();
    }
  });
});
