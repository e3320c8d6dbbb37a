import { IMAGE_TYPES } from '../account-records/dto/profile-records.dto';

export type ImageType = (typeof IMAGE_TYPES)[number];

/** The formats accepted, by the name sharp reports them under. */
export const IMAGE_FORMATS = ['png', 'jpeg', 'gif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** How a stored image of each format is named and served. */
export const FORMAT_FILES: Record<ImageFormat, { extension: string; contentType: string }> = {
  png: { extension: 'png', contentType: 'image/png' },
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  gif: { extension: 'gif', contentType: 'image/gif' },
  webp: { extension: 'webp', contentType: 'image/webp' },
};

export interface ImageLimits {
  /** Largest decoded upload (before re-encoding). */
  maxBytes: number;
  maxWidth: number;
  /** Of one frame. */
  maxHeight: number;
  /** 1: only the first frame of an animated upload is kept. More: animation is kept, up to this many frames. */
  maxFrames: number;
}

const MiB = 1024 * 1024;

/**
 * Bounds per image type. Sizes are those the profile shows each kind at, with room for high-density screens;
 * the animated kinds are smaller per frame because every frame is decoded into memory to be re-encoded
 * (512 × 512 × 120 frames ≈ 126 MB of pixels at worst). Their sum, base64-encoded, fits the default
 * IMAGE_UPLOAD_BODY_LIMIT_BYTES, so one request can replace every kind at once.
 */
export const IMAGE_LIMITS: Record<ImageType, ImageLimits> = {
  avatar: { maxBytes: 1 * MiB, maxWidth: 1024, maxHeight: 1024, maxFrames: 1 },
  avatar_frame: { maxBytes: 2 * MiB, maxWidth: 512, maxHeight: 512, maxFrames: 120 },
  animated_avatar: { maxBytes: 4 * MiB, maxWidth: 512, maxHeight: 512, maxFrames: 120 },
  background: { maxBytes: 4 * MiB, maxWidth: 4096, maxHeight: 4096, maxFrames: 1 },
  mini_background: { maxBytes: 2 * MiB, maxWidth: 2048, maxHeight: 2048, maxFrames: 1 },
};

/** The longest base64 `data` any type may send (4 characters per 3 bytes, plus a data-URL prefix). */
export const MAX_DATA_LENGTH = Math.ceil(Math.max(...Object.values(IMAGE_LIMITS).map((limit) => limit.maxBytes)) / 3) * 4 + 64;

/**
 * The format the bytes themselves announce, whatever the client claims: PNG and GIF signatures, the JPEG SOI
 * marker followed by another marker, a RIFF container of type WEBP. Null for anything else.
 */
export function sniffFormat(bytes: Buffer): ImageFormat | null {
  const starts = (signature: number[], offset = 0) => signature.every((byte, i) => bytes[offset + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a') return 'gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

/** The name an image is stored and served under: the SHA-256 of its stored bytes, and its format's extension. */
export const STORED_NAME = /^([0-9a-f]{64})\.(png|jpg|gif|webp)$/;

export function contentTypeOfName(name: string): string | null {
  const extension = STORED_NAME.exec(name)?.[2];
  const format = IMAGE_FORMATS.find((candidate) => FORMAT_FILES[candidate].extension === extension);
  return format ? FORMAT_FILES[format].contentType : null;
}

/** Uploads of each type an account keeps: the active one and the previous few (listed inactive). */
export const KEPT_PER_TYPE = 5;
