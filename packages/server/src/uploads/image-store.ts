import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { UPLOADS_URL_PREFIX } from '../common/rich-text.js';
import {
  BitmapDecodeError,
  decodeBmp,
  decodeIco,
  looksLikeBmp,
  looksLikeIco,
  type RgbaImage,
} from './bitmap-decoders.js';

// Uploaded images (avatars, announcement pictures): the type is decided from the bytes, never
// from the name or the client's content type; every image is decoded and re-encoded (metadata
// and anything hidden in the file are dropped) and stored under a name the server makes.

/** What is stored and served. */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';
/** What an upload may be: bitmaps and icons, which sharp cannot read, are stored as PNG. */
export type ImageInputFormat = ImageFormat | 'bmp' | 'ico';
export type UploadFolder = 'avatars' | 'help';

export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};
const EXTENSIONS: Record<ImageFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
};

/** Decoding stops above this many pixels (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 40_000_000;

export class UnsupportedImage extends Error {
  override readonly name = 'UnsupportedImage';
}

export interface SaveImageOptions {
  readonly folder: UploadFolder;
  /** Formats the caller accepts; anything else throws UnsupportedImage. */
  readonly accept: readonly ImageInputFormat[];
  /** The longer side is scaled down to this many pixels (never up). */
  readonly maxSidePx: number;
}

export interface StoredImage {
  /** Served by the app: `/api/uploads/{folder}/{name}`. */
  readonly url: string;
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  readonly bytes: number;
}

export interface ImageStore {
  save(input: Buffer, options: SaveImageOptions): Promise<StoredImage>;
  /** Removes a stored image by its URL; an unknown URL is ignored. */
  remove(url: string): Promise<void>;
  /** Whether the URL names an image of ours in that folder (not whether the file still exists). */
  isOwnUrl(url: string, folder: UploadFolder): boolean;
  /** The file behind a URL path's folder and name, or undefined when the name is not one of ours. */
  fileFor(folder: string, name: string): { file: string; contentType: string } | undefined;
}

const NAME_PATTERN = /^[a-f0-9]{32}\.(jpg|png|gif|webp)$/;
const FOLDERS: readonly UploadFolder[] = ['avatars', 'help'];

/**
 * The sharp input for the bytes: bitmaps and icons (recognised by their bytes) decoded here to
 * raw pixels or to the PNG an icon carries, everything else as it is. `storedAs` answers, for the
 * format sharp then reports, the format to store, or undefined when the caller does not accept it.
 */
function readImage(
  input: Buffer,
  accept: readonly ImageInputFormat[],
): { image: (animated?: boolean) => Sharp; storedAs: (found: string) => ImageFormat | undefined } {
  const open =
    (bytes: Buffer, raw?: RgbaImage) =>
    (animated = false) =>
      sharp(bytes, {
        limitInputPixels: MAX_INPUT_PIXELS,
        animated,
        ...(raw ? { raw: { width: raw.width, height: raw.height, channels: 4 as const } } : {}),
      });
  // Decoded pixels reach sharp as 'raw' (an icon's own PNG as 'png'); both are stored as PNG.
  const asPng = (expected: string) => (found: string) =>
    found === expected ? ('png' as const) : undefined;
  const refuse = (format: ImageInputFormat) => {
    if (!accept.includes(format)) throw new UnsupportedImage(`format ${format} is not accepted`);
  };
  try {
    if (looksLikeBmp(input)) {
      refuse('bmp');
      const bitmap = decodeBmp(input);
      return { image: open(bitmap.rgba, bitmap), storedAs: asPng('raw') };
    }
    if (looksLikeIco(input)) {
      refuse('ico');
      const icon = decodeIco(input);
      return 'kind' in icon
        ? { image: open(icon.png), storedAs: asPng('png') }
        : { image: open(icon.rgba, icon), storedAs: asPng('raw') };
    }
  } catch (error) {
    if (error instanceof BitmapDecodeError) throw new UnsupportedImage(error.message);
    throw error;
  }
  return {
    image: open(input),
    storedAs: (found) =>
      (accept as readonly string[]).includes(found) && found in EXTENSIONS
        ? (found as ImageFormat)
        : undefined,
  };
}

export function createImageStore(deps: { uploadsDir: string }): ImageStore {
  const urlFor = (folder: UploadFolder, name: string) => `${UPLOADS_URL_PREFIX}${folder}/${name}`;

  return {
    async save(input, options) {
      const decoded = readImage(input, options.accept);
      let metadata: Metadata;
      try {
        metadata = await decoded.image().metadata();
      } catch {
        throw new UnsupportedImage('not an image');
      }
      const format = metadata.format as string | undefined;
      const imageFormat = format ? decoded.storedAs(format) : undefined;
      if (!imageFormat) {
        throw new UnsupportedImage(`format ${format ?? 'unknown'} is not accepted`);
      }
      const animated = imageFormat === 'gif' || imageFormat === 'webp';
      let pipeline = decoded.image(animated).rotate().resize({
        width: options.maxSidePx,
        height: options.maxSidePx,
        fit: 'inside',
        withoutEnlargement: true,
      });
      pipeline =
        imageFormat === 'jpeg'
          ? pipeline.jpeg({ quality: 85, mozjpeg: true })
          : imageFormat === 'png'
            ? pipeline.png()
            : imageFormat === 'gif'
              ? pipeline.gif()
              : pipeline.webp({ quality: 85 });
      let output: { data: Buffer; info: OutputInfo };
      try {
        output = await pipeline.toBuffer({ resolveWithObject: true });
      } catch {
        throw new UnsupportedImage('the image could not be decoded');
      }
      const name = `${randomBytes(16).toString('hex')}.${EXTENSIONS[imageFormat]}`;
      const dir = path.join(deps.uploadsDir, options.folder);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(path.join(dir, name), output.data, { mode: 0o600 });
      return {
        url: urlFor(options.folder, name),
        format: imageFormat,
        width: output.info.width,
        height: output.info.pageHeight ?? output.info.height,
        bytes: output.data.length,
      };
    },
    async remove(url) {
      const match = /^\/api\/uploads\/([a-z]+)\/([^/]+)$/.exec(url);
      const found = match ? this.fileFor(match[1] ?? '', match[2] ?? '') : undefined;
      if (found) await rm(found.file, { force: true });
    },
    isOwnUrl(url, folder) {
      const prefix = urlFor(folder, '');
      return url.startsWith(prefix) && NAME_PATTERN.test(url.slice(prefix.length));
    },
    fileFor(folder, name) {
      if (!(FOLDERS as readonly string[]).includes(folder) || !NAME_PATTERN.test(name)) {
        return undefined;
      }
      const extension = name.slice(name.lastIndexOf('.') + 1);
      const format = (Object.keys(EXTENSIONS) as ImageFormat[]).find(
        (f) => EXTENSIONS[f] === extension,
      );
      if (!format) return undefined;
      return {
        file: path.join(deps.uploadsDir, folder, name),
        contentType: IMAGE_CONTENT_TYPES[format],
      };
    },
  };
}
