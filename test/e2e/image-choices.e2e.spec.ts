import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestApp, TestContext } from '../support/test-app';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Image {
  active: boolean;
  fileName: string;
  imageId: string;
  imageType: string;
}

/** A small PNG of one colour: the same colour gives the same bytes, hence the same stored file. */
async function png(red: number): Promise<string> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: red, g: 20, b: 30 } } })
    .png()
    .toBuffer();
  return bytes.toString('base64');
}

describe('account.listImages, updateImages and deleteImages', () => {
  let ctx: TestContext;
  let storeDir: string;
  let alice: string;
  let bob: string;
  let apiKey: string;

  const post = (operation: string, token: string, body?: object) => {
    const request = ctx.http().post(`/v1/${operation}`).set(bearer(token));
    return body === undefined ? request : request.send(body);
  };
  const upload = async (token: string, type: string, red: number): Promise<Image> =>
    (await post('account.uploadImages', token, { images: [{ type, data: await png(red) }] }).expect(200)).body.images[0];
  const list = async (token: string): Promise<Image[]> => (await post('account.listImages', token).expect(200)).body.images;
  const profileImages = async (accountId: number): Promise<Image[]> =>
    (await post('account.getInfo', apiKey, { id: { accountId } }).expect(200)).body.images;
  const settingsImages = async (token: string): Promise<Image[]> => (await post('account.getSettings', token).expect(200)).body.images;
  const storedFiles = async () => (await readdir(storeDir).catch(() => [] as string[])).sort();
  const rows = async () => ctx.dataSource.query('SELECT image_id, active FROM account_images ORDER BY image_id');

  beforeAll(async () => {
    storeDir = await mkdtemp(join(tmpdir(), 'bst-image-choices-'));
    ctx = await startTestApp('imgchoice', { IMAGE_STORE_DIR: storeDir });
    alice = (await ctx.session(1)).sessionToken;
    bob = (await ctx.session(2)).sessionToken;
    apiKey = await ctx.apiKey(1);
  });
  afterAll(async () => {
    await ctx.close();
    await rm(storeDir, { recursive: true, force: true });
  });

  it('should list the caller’s images with their schema, and only for a session', async () => {
    const res = await post('account.listImages', alice).expect(200);
    expect(res.body).toEqual({ $schema: 'http://api.test/schemas/V1AccountListImagesResponseBody.json', images: [] });
    await post('account.listImages', apiKey).expect(401);
    await post('account.listImages', alice, { images: [] }).expect(422);
  });

  it('should make a chosen image the one active of its type, in the list, the settings and the profile', async () => {
    const first = await upload(alice, 'avatar', 10);
    const second = await upload(alice, 'avatar', 20);
    const background = await upload(alice, 'background', 30);
    // The newest upload is active.
    expect((await list(alice)).filter((image) => image.active).map((image) => image.imageId)).toEqual([second.imageId, background.imageId]);

    const res = await post('account.updateImages', alice, { images: [{ imageId: first.imageId, active: true }] }).expect(200);
    expect(res.body).toEqual({ $schema: 'http://api.test/schemas/V1AccountUpdateImageResponseBody.json' });
    const expected = [
      { ...first, active: true },
      { ...second, active: false },
      { ...background, active: true },
    ];
    expect(await list(alice)).toEqual(expected);
    expect(await settingsImages(alice)).toEqual(expected);
    // The profile reads images in its own statement, with nothing cached between requests: changed at once.
    expect(await profileImages(1)).toEqual(expected);

    // The active background is the profile's `background` (its file name); the avatar stays the platform's hash.
    const profile = async () => (await post('account.getInfo', apiKey, { id: { accountId: 1 } }).expect(200)).body;
    expect(await profile()).toMatchObject({ background: background.fileName, miniBackground: '', avatarFrame: '' });

    // Deactivated, the type has no active image, and the profile no background.
    await post('account.updateImages', alice, { images: [{ imageId: background.imageId, active: false }] }).expect(200);
    expect((await profileImages(1)).filter((image) => image.active).map((image) => image.imageId)).toEqual([first.imageId]);
    expect((await profile()).background).toBe('');
    // Uploaded again, it is active at once; deleted, it is gone from the profile.
    const again = await upload(alice, 'mini_background', 40);
    expect((await profile()).miniBackground).toBe(again.fileName);
    await post('account.deleteImages', alice, { imageIds: [again.imageId] }).expect(200);
    expect((await profile()).miniBackground).toBe('');
  });

  it('should refuse another account’s or an unknown image with 404, and two of one type made active with 422, changing nothing', async () => {
    const [first, second] = (await list(alice)).filter((image) => image.imageType === 'avatar');
    const before = await rows();
    const bobs = await upload(bob, 'avatar', 40);
    const afterUpload = await rows();
    const missing = await post('account.updateImages', alice, {
      images: [
        { imageId: second.imageId, active: true },
        { imageId: bobs.imageId, active: true },
      ],
    }).expect(404);
    expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
    await post('account.updateImages', alice, { images: [{ imageId: 'img_doesnotexist', active: true }] }).expect(404);
    const twice = await post('account.updateImages', alice, {
      images: [
        { imageId: first.imageId, active: true },
        { imageId: second.imageId, active: true },
      ],
    }).expect(422);
    expect(twice.body.errors[0].location).toBe('body.images[1].active');
    await post('account.updateImages', alice, {
      images: [
        { imageId: first.imageId, active: false },
        { imageId: first.imageId, active: true },
      ],
    }).expect(422);
    // Malformed: the schema's bounds and patterns.
    await post('account.updateImages', alice, { images: [{ imageId: 'nope', active: true }] }).expect(422);
    await post('account.updateImages', alice, {
      images: Array.from({ length: 26 }, () => ({ imageId: first.imageId, active: false })),
    }).expect(422);
    await post('account.deleteImages', alice, { imageIds: Array.from({ length: 26 }, () => first.imageId) }).expect(422);
    await post('account.deleteImages', alice, { imageIds: ['not an id'] }).expect(422);
    expect(await rows()).toEqual(afterUpload);
    expect(afterUpload.length).toBe(before.length + 1);
    await post('account.updateImages', apiKey, { images: [] }).expect(401);
  });

  it('should delete images, and their file once no row of any account refers to it', async () => {
    // Bob uploads the very picture Alice has: one file, two rows.
    const shared = await upload(bob, 'avatar', 10);
    const alices = (await list(alice)).find((image) => image.fileName === shared.fileName)!;
    expect(alices).toBeDefined();
    const bobsOwn = (await list(bob)).find((image) => image.fileName !== shared.fileName)!;

    // Bob cannot delete Alice's: ignored.
    await post('account.deleteImages', bob, { imageIds: [alices.imageId] }).expect(200);
    expect((await list(alice)).map((image) => image.imageId)).toContain(alices.imageId);

    const res = await post('account.deleteImages', alice, { imageIds: [alices.imageId] }).expect(200);
    expect(res.body).toEqual({ $schema: 'http://api.test/schemas/V1AccountDeleteImagesResponseBody.json' });
    expect((await list(alice)).map((image) => image.imageId)).not.toContain(alices.imageId);
    expect((await profileImages(1)).map((image) => image.imageId)).not.toContain(alices.imageId);
    // Bob's row still refers to the file: kept, and served.
    expect(await storedFiles()).toContain(shared.fileName);
    await ctx.http().get(`/images/${shared.fileName}`).expect(200);

    await post('account.deleteImages', bob, { imageIds: [shared.imageId, bobsOwn.imageId] }).expect(200);
    expect(await list(bob)).toEqual([]);
    expect(await storedFiles()).not.toContain(shared.fileName);
    expect(await storedFiles()).not.toContain(bobsOwn.fileName);
    await ctx.http().get(`/images/${shared.fileName}`).expect(404);
    // Deleting again, or nothing, changes nothing.
    await post('account.deleteImages', bob, { imageIds: [shared.imageId] }).expect(200);
    await post('account.deleteImages', bob, { imageIds: null }).expect(200);
    // Alice's other files are untouched.
    for (const image of await list(alice)) expect(await storedFiles()).toContain(image.fileName);
  });
});
