import { Injectable } from '@nestjs/common';
import { webcrypto } from 'node:crypto';
import sharp from 'sharp';
import { DecodedBase64, decodeStrictBase64 } from '../common/http/base64';
import { FORMAT_FILES, IMAGE_LIMITS, ImageFormat, ImageType, sniffFormat } from './image-formats';

/** An upload that passed every check, re-encoded and ready to store. */
export interface ProcessedImage {
  type: ImageType;
  format: ImageFormat;
  /** The re-encoded bytes: no EXIF, XMP, ICC or comments of the upload survive. */
  bytes: Buffer;
  /** `<sha256 of bytes>.<extension>`: the store key, the served name and the strong ETag. */
  fileName: string;
  sha256: string;
  width: number;
  /** Of one frame. */
  height: number;
  frames: number;
}

/** Why an upload was refused; the message is shown to the client, located at the image's `data`. */
export class ImageRejected extends Error {}

// Decoded pixels are used once: libvips' operation cache would only hold on to memory.
sharp.cache(false);

/**
 * Checks an upload by its content and re-encodes it. Nothing here touches storage, so every image of a request
 * is checked before any of them is stored. The checks, cheapest first: strict base64 and its size; the format's
 * signature (the bytes decide, never a claimed type); the header decoded by libvips (format, dimensions, frame
 * count) against the type's bounds, before any pixel is allocated; then a full decode that refuses truncated or
 * corrupt data, and a re-encode in the same format, which drops every metadata block of the upload (location
 * EXIF among them) after applying its EXIF orientation.
 *
 * Nothing here is O(bytes) on the event loop: the upload arrives decoded (the JSON body thread decodes the base64,
 * see JsonBodyMiddleware; a string is decoded here only for direct callers), libvips decodes and encodes on the
 * libuv threadpool, and the hash is WebCrypto's, computed there too.
 */
/** IMAGE_PIXEL_FRAME_BUDGET's default: 16 Mi pixel-frames (e.g. 4096×4096 still, or 512×512 × 64 frames). */
export const DEFAULT_PIXEL_FRAME_BUDGET = 16 * 1024 * 1024;

@Injectable()
export class ImageProcessor {
  /** `pixelFrameBudget`: the largest width × height × frames decoded for one image (limits/upload-limits.ts). */
  constructor(private readonly pixelFrameBudget = DEFAULT_PIXEL_FRAME_BUDGET) {}

  /** `data`: the upload as decoded off the loop, or its base64 text (a `data:…;base64,` prefix is accepted). */
  async process(data: DecodedBase64 | string, type: ImageType): Promise<ProcessedImage> {
    const limits = IMAGE_LIMITS[type];
    const decoded = typeof data === 'string' ? decodeStrictBase64(data, limits.maxBytes) : data;
    // The size the text claims is judged first, so an oversized upload is refused as such even when it is not base64.
    if (decoded.claimedBytes > limits.maxBytes) throw new ImageRejected(`is larger than ${limits.maxBytes} bytes`);
    if (!decoded.bytes) throw new ImageRejected('is not base64');
    const bytes = decoded.bytes;
    const format = sniffFormat(bytes);
    if (!format) throw new ImageRejected('is not a PNG, JPEG, GIF or WebP image (judged by its content, not its claimed type)');

    const header = await sharp(bytes, { failOn: 'truncated' })
      .metadata()
      .catch(() => null);
    if (!header || header.format !== format || !header.width || !header.height) {
      throw new ImageRejected(`could not be decoded as ${format.toUpperCase()}: its header is corrupt`);
    }
    const width = header.width;
    const height = header.pageHeight ?? header.height;
    const frames = header.pages ?? 1;
    if (width > limits.maxWidth || height > limits.maxHeight) {
      throw new ImageRejected(`is ${width}×${height} pixels; a ${type} may be at most ${limits.maxWidth}×${limits.maxHeight}`);
    }
    const animated = limits.maxFrames > 1 && frames > 1;
    if (animated && frames > limits.maxFrames) {
      throw new ImageRejected(`has ${frames} frames; a ${type} may have at most ${limits.maxFrames}`);
    }

    const pixelFrames = width * height * (animated ? frames : 1);
    if (pixelFrames > this.pixelFrameBudget) {
      throw new ImageRejected(
        `is ${width}×${height} pixels × ${animated ? frames : 1} frame(s), ${pixelFrames} pixel-frames; at most ${this.pixelFrameBudget} are decoded per image`,
      );
    }

    const pixelLimit = limits.maxWidth * limits.maxHeight * (animated ? limits.maxFrames : 1);
    const rotate = !animated && (header.orientation ?? 1) > 1;
    const encoded = await this.reencode(bytes, format, { animated, rotate, pixelLimit }).catch(() => {
      throw new ImageRejected(`could not be decoded as ${format.toUpperCase()}: the data is truncated or corrupt`);
    });
    const sha256 = Buffer.from(await webcrypto.subtle.digest('SHA-256', encoded.data)).toString('hex');
    return {
      type,
      format,
      bytes: encoded.data,
      fileName: `${sha256}.${FORMAT_FILES[format].extension}`,
      sha256,
      width: encoded.info.width,
      height: encoded.info.pageHeight ?? encoded.info.height,
      frames: animated ? frames : 1,
    };
  }

  private reencode(bytes: Buffer, format: ImageFormat, options: { animated: boolean; rotate: boolean; pixelLimit: number }) {
    // The header was checked against the bounds; the pixel limit only guards against frames that disagree with it.
    let image = sharp(bytes, { failOn: 'truncated', animated: options.animated, limitInputPixels: options.pixelLimit });
    if (options.rotate) image = image.autoOrient();
    switch (format) {
      case 'png':
        image = image.png();
        break;
      case 'jpeg':
        image = image.jpeg({ quality: 90 });
        break;
      case 'gif':
        image = image.gif();
        break;
      case 'webp':
        // A lossless upload (a VP8L bitstream) stays lossless; a lossy one is re-encoded at high quality.
        image = image.webp(bytes.subarray(12, 16).toString('latin1') === 'VP8L' ? { lossless: true } : { quality: 90 });
        break;
    }
    return image.toBuffer({ resolveWithObject: true });
  }
}
