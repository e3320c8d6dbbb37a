import sharp from 'sharp';
import { sniffFormat } from '../../src/images/image-formats';
import { ImageProcessor, ImageRejected } from '../../src/images/image-processor';

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', width = 12, height = 8) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .toFormat(format)
    .toBuffer();

describe('ImageProcessor', () => {
  const processor = new ImageProcessor();

  it.each(['png', 'jpeg', 'gif', 'webp'] as const)('should recognise %s by its signature', async (format) => {
    expect(sniffFormat(await image(format))).toBe(format);
  });

  it('should recognise nothing else', () => {
    expect(sniffFormat(Buffer.from('<svg/>'))).toBeNull();
    expect(sniffFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffFormat(Buffer.alloc(0))).toBeNull();
  });

  it('should refuse base64 with characters Buffer.from would silently skip', async () => {
    const data = (await image('png')).toString('base64');
    await expect(processor.process(`${data.slice(0, 8)}*${data.slice(9)}`, 'avatar')).rejects.toThrow(ImageRejected);
    await expect(processor.process('', 'avatar')).rejects.toThrow(/not base64/);
  });

  it('should refuse a header whose format disagrees with the signature', async () => {
    const png = await image('png');
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), png]);
    await expect(processor.process(fake.toString('base64'), 'avatar')).rejects.toThrow(/could not be decoded as JPEG/);
  });

  it('should apply the EXIF orientation before dropping the EXIF', async () => {
    const rotated = await sharp(await image('jpeg', 40, 10))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const result = await processor.process(rotated.toString('base64'), 'avatar');
    expect({ width: result.width, height: result.height }).toEqual({ width: 10, height: 40 });
    const stored = await sharp(result.bytes).metadata();
    expect(stored.orientation).toBeUndefined();
    expect(stored.exif).toBeUndefined();
  });

  it('should refuse more frames than an animated type allows', async () => {
    const frames = 121;
    // Frames of clearly different colours (the encoder merges frames its palette cannot tell apart).
    const colour = (i: number) => [(i * 53) % 256, (i * 101) % 256, (i * 29) % 256];
    const raw = Buffer.concat(Array.from({ length: frames }, (_, i) => Buffer.from(Array.from({ length: 16 }, () => colour(i)).flat())));
    const gif = await sharp(raw, { raw: { width: 4, height: 4 * frames, channels: 3, pageHeight: 4 } })
      .gif()
      .toBuffer();
    await expect(processor.process(gif.toString('base64'), 'animated_avatar')).rejects.toThrow(/has 121 frames/);
    // A static type keeps the first frame only, whatever the count.
    expect((await processor.process(gif.toString('base64'), 'avatar')).frames).toBe(1);
  });
});
