import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestApp, TestContext } from '../support/test-app';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A small opaque image of one colour, in the given format. */
function solid(format: 'png' | 'jpeg' | 'gif' | 'webp', width = 32, height = 24, red = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: red, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** Random pixels: PNG cannot compress them, so the file is about width × height × 3 bytes. */
function noise(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A two-frame animated GIF. */
async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    [0, 255].map((red) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background: { r: red, g: 0, b: 0 } } })
        .raw()
        .toBuffer(),
    ),
  );
  return sharp(Buffer.concat(frames), { raw: { width: 16, height: 32, channels: 3, pageHeight: 16 } })
    .gif({ loop: 0, delay: [100, 100] })
    .toBuffer();
}

describe('account.uploadImages and the image store', () => {
  let ctx: TestContext;
  let storeDir: string;
  let session: string;
  let apiKey: string;

  const upload = (images: unknown, token = session) => ctx.http().post('/v1/account.uploadImages').set(bearer(token)).send({ images });
  const storedFiles = async () => (await readdir(storeDir).catch(() => [] as string[])).sort();
  const rowCount = async () => Number((await ctx.dataSource.query('SELECT count(*) AS n FROM account_images'))[0].n);
  const profileImages = async () =>
    (
      await ctx
        .http()
        .post('/v1/account.getInfo')
        .set(bearer(apiKey))
        .send({ id: { accountId: 1 } })
        .expect(200)
    ).body.images;

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'bst-images-'));
    ctx = await startTestApp('images', { IMAGE_STORE_DIR: storeDir, IMAGE_UPLOAD_BODY_LIMIT_BYTES: String(4 * 1024 * 1024) });
    session = (await ctx.session(1)).sessionToken;
    apiKey = await ctx.apiKey(1);
  });
  afterAll(async () => {
    await ctx.close();
    await rm(storeDir, { recursive: true, force: true });
  });

  it('should store a PNG, serve it back with caching headers and list it in the profile and the settings', async () => {
    const png = await solid('png');
    const res = await upload([{ type: 'avatar', data: b64(png) }]).expect(200);
    expect(res.body.$schema).toBe('http://api.test/schemas/V1AccountUploadImagesResponseBody.json');
    const [image] = res.body.images;
    expect(image).toEqual({
      active: true,
      imageType: 'avatar',
      imageId: expect.stringMatching(/^img_/),
      fileName: expect.stringMatching(/^[0-9a-f]{64}\.png$/),
    });

    const served = await ctx.http().get(`/images/${image.fileName}`).buffer(true).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const hash = image.fileName.slice(0, 64);
    expect(served.headers.etag).toBe(`"${hash}"`);
    expect(createHash('sha256').update(served.body).digest('hex')).toBe(hash);
    // Re-encoded, losslessly: the same pixels.
    const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer();
    expect((await pixels(served.body)).equals(await pixels(png))).toBe(true);
    await ctx.http().get(`/images/${image.fileName}`).set('If-None-Match', `"${hash}"`).expect(304);

    expect(await profileImages()).toEqual([image]);
    const settings = await ctx.http().post('/v1/account.getSettings').set(bearer(session)).expect(200);
    expect(settings.body.images).toEqual([image]);
    expect(await storedFiles()).toEqual([image.fileName]);
  });

  it('should make the newest upload of a type the active one and keep the others listed inactive', async () => {
    const before = await profileImages();
    const res = await upload([{ type: 'avatar', data: b64(await solid('png', 32, 24, 10)) }]).expect(200);
    const images = await profileImages();
    expect(images).toEqual([res.body.images[0], { ...before[0], active: false }]);
  });

  it('should refuse truncated, non-image and non-base64 data with 422 naming each, and store nothing of the request', async () => {
    const files = await storedFiles();
    const rows = await rowCount();
    const png = await solid('png', 40, 40, 77);
    const res = await upload([
      { type: 'background', data: b64(await solid('jpeg')) },
      { type: 'avatar', data: b64(png.subarray(0, png.length - 20)) },
      { type: 'mini_background', data: b64(Buffer.from('GIF89a, but not really an image at all')) },
      { type: 'avatar_frame', data: b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')) },
      { type: 'animated_avatar', data: 'not base64 at all!' },
    ]).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors.map((error: { location: string }) => error.location)).toEqual([
      'body.images[1].data',
      'body.images[2].data',
      'body.images[3].data',
      'body.images[4].data',
    ]);
    expect(res.body.errors[0].message).toMatch(/truncated or corrupt/);
    expect(res.body.errors[2].message).toMatch(/not a PNG, JPEG, GIF or WebP/);
    expect(res.body.errors[3].message).toMatch(/not base64/);
    expect(await storedFiles()).toEqual(files);
    expect(await rowCount()).toBe(rows);
  });

  it('should refuse images over their type’s pixel or byte bounds with 422', async () => {
    const files = await storedFiles();
    const wide = await upload([{ type: 'avatar', data: b64(await solid('png', 1100, 10)) }]).expect(422);
    expect(wide.body.errors).toEqual([
      { location: 'body.images[0].data', message: expect.stringMatching(/1100×10 pixels; a avatar may be at most 1024×1024/) },
    ]);
    const heavy = await noise(700, 700); // ~1.4 MB: within the avatar's pixels, over its 1 MiB
    const big = await upload([{ type: 'avatar', data: b64(heavy) }]).expect(422);
    expect(big.body.errors[0]).toMatchObject({
      location: 'body.images[0].data',
      message: expect.stringMatching(/larger than 1048576 bytes/),
    });
    // The same bytes are within a background's bounds.
    await upload([{ type: 'background', data: b64(heavy) }]).expect(200);
    expect((await storedFiles()).length).toBe(files.length + 1);
  });

  it('should judge the format by content, strip metadata and keep animation only where the type allows it', async () => {
    const png = await solid('png', 20, 20, 5);
    const jpeg = await sharp(await solid('jpeg', 30, 20))
      .withExif({ IFD0: { Copyright: 'secret owner', ImageDescription: 'home address' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const gif = await animatedGif();
    const res = await upload([
      { type: 'avatar_frame', data: `data:image/jpeg;base64,${b64(png)}` },
      { type: 'mini_background', data: b64(jpeg) },
      { type: 'animated_avatar', data: b64(gif) },
      { type: 'avatar', data: b64(gif) },
      { type: 'background', data: b64(await solid('webp')) },
    ]).expect(200);
    const names: string[] = res.body.images.map((image: { fileName: string }) => image.fileName);
    expect(names.map((name) => name.split('.')[1])).toEqual(['png', 'jpg', 'gif', 'gif', 'webp']);
    const fetch = async (name: string) => (await ctx.http().get(`/images/${name}`).buffer(true).expect(200)).body as Buffer;
    const storedJpeg = await sharp(await fetch(names[1])).metadata();
    expect(storedJpeg.exif).toBeUndefined();
    expect((await sharp(await fetch(names[2])).metadata()).pages).toBe(2);
    expect((await sharp(await fetch(names[3])).metadata()).pages ?? 1).toBe(1);
    expect((await ctx.http().get(`/images/${names[4]}`)).headers['content-type']).toBe('image/webp');
  });

  it('should remove the files it wrote when the database refuses the rows', async () => {
    const files = await storedFiles();
    await ctx.dataSource.query(`CREATE FUNCTION refuse_image() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await ctx.dataSource.query('CREATE TRIGGER refuse_image BEFORE INSERT ON account_images FOR EACH ROW EXECUTE FUNCTION refuse_image()');
    try {
      await upload([{ type: 'avatar', data: b64(await solid('png', 11, 11)) }]).expect(500);
    } finally {
      await ctx.dataSource.query('DROP TRIGGER refuse_image ON account_images');
      await ctx.dataSource.query('DROP FUNCTION refuse_image()');
    }
    expect(await storedFiles()).toEqual(files);
  });

  it('should refuse two images of one type in a request', async () => {
    const data = b64(await solid('png'));
    const res = await upload([
      { type: 'avatar', data },
      { type: 'avatar', data },
    ]).expect(422);
    expect(res.body.errors).toEqual([{ location: 'body.images[1].type', message: expect.stringMatching(/one per type/) }]);
  });

  it('should keep the newest uploads of a type and delete files nothing references any more', async () => {
    const names: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await upload([{ type: 'mini_background', data: b64(await solid('png', 8, 8, 100 + i)) }]).expect(200);
      names.push(res.body.images[0].fileName);
    }
    const listed = (await profileImages()).filter((image: { imageType: string }) => image.imageType === 'mini_background');
    expect(listed.map((image: { fileName: string }) => image.fileName)).toEqual(names.slice(2).reverse());
    const files = await storedFiles();
    expect(files).not.toContain(names[0]);
    expect(files).not.toContain(names[1]);
    await ctx.http().get(`/images/${names[0]}`).expect(404);
  });

  it('should refuse API keys and missing credentials with 401', async () => {
    const data = b64(await solid('png', 9, 9));
    const rows = await rowCount();
    const res = await upload([{ type: 'avatar', data }], apiKey).expect(401);
    expect(res.body.detail).toMatch(/user session/);
    await ctx
      .http()
      .post('/v1/account.uploadImages')
      .send({ images: [{ type: 'avatar', data }] })
      .expect(401);
    expect(await rowCount()).toBe(rows);
  });

  it('should take a body over the general limit on this operation only, and only with a session', async () => {
    const data = b64(await noise(300, 300)); // ~360 kB of base64
    expect(data.length).toBeGreaterThan(ctx.config.bodyLimitBytes);
    await upload([{ type: 'background', data }]).expect(200);
    const elsewhere = JSON.stringify({ id: { accountId: 1 }, pad: 'x'.repeat(data.length) });
    await ctx.http().post('/v1/account.getInfo').set(bearer(apiKey)).set('Content-Type', 'application/json').send(elsewhere).expect(413);
    // Without a session the body is not read at all: the answer is the credential's 401.
    await upload([{ type: 'background', data }], apiKey).expect(401);
    const over = JSON.stringify({ images: [{ type: 'background', data: 'A'.repeat(ctx.config.images.uploadBodyLimitBytes) }] });
    await ctx.http().post('/v1/account.uploadImages').set(bearer(session)).set('Content-Type', 'application/json').send(over).expect(413);
  });

  it('should answer 404 for names that are not stored images', async () => {
    await ctx
      .http()
      .get(`/images/${'0'.repeat(64)}.png`)
      .expect(404);
    await ctx.http().get('/images/..%2F..%2Fpackage.json').expect(404);
    await ctx.http().get('/images/whatever.svg').expect(404);
  });
});
