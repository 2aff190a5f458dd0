// Decoders for the two editor image types sharp cannot read: Windows bitmaps (BMP) and icons
// (ICO, whose images are PNG or headerless bitmaps). They only turn bytes into RGBA pixels;
// sharp re-encodes those as PNG. Every size and offset is checked against the buffer before it
// is used, so a hostile file fails with BitmapDecodeError and never reads out of bounds or
// allocates more than MAX_BITMAP_PIXELS.

/** Larger bitmaps are refused (4096 × 4096; 64 MB of RGBA). */
export const MAX_BITMAP_PIXELS = 16_777_216;

export class BitmapDecodeError extends Error {
  override readonly name = 'BitmapDecodeError';
}

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** width × height × 4 bytes, top row first. */
  readonly rgba: Buffer;
}

/** An icon's chosen image: pixels, or a PNG the icon carries as it is. */
export type DecodedIcon = { readonly kind: 'png'; readonly png: Buffer } | RgbaImage;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

/** Whether the bytes start like a BMP file ("BM" and a known DIB header size). */
export function looksLikeBmp(bytes: Buffer): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
  return [12, 40, 52, 56, 108, 124].includes(bytes.readUInt32LE(14));
}

/** Whether the bytes start like an icon file (reserved 0, type 1, at least one image). */
export function looksLikeIco(bytes: Buffer): boolean {
  return (
    bytes.length >= 22 &&
    bytes.readUInt16LE(0) === 0 &&
    bytes.readUInt16LE(2) === 1 &&
    bytes.readUInt16LE(4) > 0
  );
}

function fail(message: string): never {
  throw new BitmapDecodeError(message);
}

interface DibHeader {
  readonly headerSize: number;
  readonly width: number;
  /** Rows of the image (for icons: of the colour part, half the stored height). */
  readonly height: number;
  readonly isTopDown: boolean;
  readonly bitCount: number;
  readonly compression: number;
  readonly colorsUsed: number;
  /** Red, green, blue, alpha masks (alpha 0: none) for 16 and 32 bit pixels. */
  readonly masks: readonly [number, number, number, number] | null;
  /** Bytes of the header and of masks stored after it. */
  readonly bytesBeforePalette: number;
  /** 3 for core headers, 4 otherwise. */
  readonly paletteEntrySize: number;
}

function readDibHeader(bytes: Buffer, at: number, isIcon: boolean): DibHeader {
  if (at + 12 > bytes.length) fail('truncated header');
  const headerSize = bytes.readUInt32LE(at);
  if (headerSize === 12) {
    if (isIcon) fail('unsupported icon header');
    const width = bytes.readUInt16LE(at + 4);
    const height = bytes.readUInt16LE(at + 6);
    const bitCount = bytes.readUInt16LE(at + 10);
    if (![1, 4, 8, 24].includes(bitCount)) fail(`unsupported bit depth ${bitCount}`);
    return {
      headerSize,
      width,
      height,
      isTopDown: false,
      bitCount,
      compression: BI_RGB,
      colorsUsed: 0,
      masks: null,
      bytesBeforePalette: 12,
      paletteEntrySize: 3,
    };
  }
  if (![40, 52, 56, 108, 124].includes(headerSize)) fail(`unsupported header size ${headerSize}`);
  if (at + headerSize > bytes.length) fail('truncated header');
  const width = bytes.readInt32LE(at + 4);
  const storedHeight = bytes.readInt32LE(at + 8);
  const bitCount = bytes.readUInt16LE(at + 14);
  const compression = bytes.readUInt32LE(at + 16);
  const colorsUsed = bytes.readUInt32LE(at + 32);
  if (![1, 4, 8, 16, 24, 32].includes(bitCount)) fail(`unsupported bit depth ${bitCount}`);
  const isTopDown = storedHeight < 0;
  let height = Math.abs(storedHeight);
  if (isIcon) {
    if (isTopDown || height % 2 !== 0) fail('bad icon height');
    height /= 2;
  }

  let masks: DibHeader['masks'] = null;
  let bytesBeforePalette = headerSize;
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    if (bitCount !== 16 && bitCount !== 32) fail('bit fields need 16 or 32 bit pixels');
    const hasAlpha = compression === BI_ALPHABITFIELDS || headerSize >= 56;
    // A 40-byte header keeps its masks after it; larger headers carry them inside.
    const maskAt = at + 40;
    const maskBytes = hasAlpha ? 16 : 12;
    if (headerSize === 40) bytesBeforePalette += maskBytes;
    if (maskAt + maskBytes > bytes.length) fail('truncated bit fields');
    masks = [
      bytes.readUInt32LE(maskAt),
      bytes.readUInt32LE(maskAt + 4),
      bytes.readUInt32LE(maskAt + 8),
      hasAlpha ? bytes.readUInt32LE(maskAt + 12) : 0,
    ];
  } else if (compression === BI_RLE8) {
    if (bitCount !== 8 || isTopDown || isIcon) fail('bad RLE8 bitmap');
  } else if (compression === BI_RLE4) {
    if (bitCount !== 4 || isTopDown || isIcon) fail('bad RLE4 bitmap');
  } else if (compression !== BI_RGB) {
    fail(`unsupported compression ${compression}`);
  }
  if (bitCount === 16 && masks === null) masks = [0x7c00, 0x03e0, 0x001f, 0];
  return {
    headerSize,
    width,
    height,
    isTopDown,
    bitCount,
    compression,
    colorsUsed,
    masks,
    bytesBeforePalette,
    paletteEntrySize: 4,
  };
}

function checkSize(width: number, height: number): void {
  if (width <= 0 || height <= 0) fail('empty image');
  if (width * height > MAX_BITMAP_PIXELS) fail('image too large');
}

/** Palette as packed [r, g, b] triples; indexes past its end read as black. */
function readPalette(bytes: Buffer, at: number, header: DibHeader): Uint8Array {
  if (header.bitCount > 8) return new Uint8Array(0);
  const maxEntries = 1 << header.bitCount;
  const entries =
    header.colorsUsed > 0 && header.colorsUsed < maxEntries ? header.colorsUsed : maxEntries;
  const size = header.paletteEntrySize;
  // Writers sometimes store a shorter palette than they declare; read what is there.
  const available = Math.max(0, Math.min(entries, Math.floor((bytes.length - at) / size)));
  const palette = new Uint8Array(maxEntries * 3);
  for (let i = 0; i < available; i++) {
    const p = at + i * size;
    palette[i * 3] = bytes[p + 2] ?? 0;
    palette[i * 3 + 1] = bytes[p + 1] ?? 0;
    palette[i * 3 + 2] = bytes[p] ?? 0;
  }
  return palette;
}

interface Channel {
  readonly mask: number;
  readonly shift: number;
  readonly max: number;
}

function channel(mask: number): Channel {
  if (mask === 0) return { mask: 0, shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  if ((max & (max + 1)) !== 0) fail('bit field mask is not contiguous');
  return { mask, shift, max };
}

const scaled = (value: number, c: Channel): number =>
  c.max === 0 ? 0 : Math.round((((value & c.mask) >>> c.shift) * 255) / c.max);

const rowStride = (width: number, bitCount: number): number =>
  Math.floor((width * bitCount + 31) / 32) * 4;

/** Uncompressed pixels (every bit depth) into `out`; answers whether any alpha was stored. */
function readUncompressed(
  bytes: Buffer,
  at: number,
  header: DibHeader,
  palette: Uint8Array,
  out: Buffer,
): boolean {
  const { width, height, bitCount } = header;
  const stride = rowStride(width, bitCount);
  if (at + stride * height > bytes.length) fail('truncated pixel data');
  const [red, green, blue, alpha] = (header.masks ?? [0, 0, 0, 0]).map(channel) as [
    Channel,
    Channel,
    Channel,
    Channel,
  ];
  const hasMasks = header.masks !== null;
  let hasAlpha = false;
  for (let row = 0; row < height; row++) {
    const y = header.isTopDown ? row : height - 1 - row;
    const src = at + row * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 255;
      if (bitCount <= 8) {
        const bitOffset = x * bitCount;
        const byte = bytes[src + (bitOffset >> 3)] ?? 0;
        const index = (byte >> (8 - bitCount - (bitOffset & 7))) & ((1 << bitCount) - 1);
        r = palette[index * 3] ?? 0;
        g = palette[index * 3 + 1] ?? 0;
        b = palette[index * 3 + 2] ?? 0;
      } else if (bitCount === 24) {
        const p = src + x * 3;
        b = bytes[p] ?? 0;
        g = bytes[p + 1] ?? 0;
        r = bytes[p + 2] ?? 0;
      } else if (bitCount === 32 && !hasMasks) {
        const p = src + x * 4;
        b = bytes[p] ?? 0;
        g = bytes[p + 1] ?? 0;
        r = bytes[p + 2] ?? 0;
        a = bytes[p + 3] ?? 0;
        if (a !== 0) hasAlpha = true;
      } else {
        const value =
          bitCount === 16 ? bytes.readUInt16LE(src + x * 2) : bytes.readUInt32LE(src + x * 4);
        r = scaled(value, red);
        g = scaled(value, green);
        b = scaled(value, blue);
        if (alpha.mask !== 0) {
          a = scaled(value, alpha);
          if (a !== 0) hasAlpha = true;
        }
      }
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = a;
    }
  }
  return hasAlpha;
}

/** Run-length encoded 8 or 4 bit pixels; pixels the runs skip stay transparent. */
function readRunLength(
  bytes: Buffer,
  at: number,
  header: DibHeader,
  palette: Uint8Array,
  out: Buffer,
): void {
  const { width, height } = header;
  const isFourBit = header.compression === BI_RLE4;
  let x = 0;
  let row = 0;
  let p = at;
  const put = (index: number) => {
    if (x < width && row < height) {
      const o = ((height - 1 - row) * width + x) * 4;
      out[o] = palette[index * 3] ?? 0;
      out[o + 1] = palette[index * 3 + 1] ?? 0;
      out[o + 2] = palette[index * 3 + 2] ?? 0;
      out[o + 3] = 255;
    }
    x++;
  };
  while (row < height) {
    if (p + 2 > bytes.length) fail('truncated run-length data');
    const count = bytes[p] ?? 0;
    const value = bytes[p + 1] ?? 0;
    p += 2;
    if (count > 0) {
      // Pixels past the row's end are dropped without a loop, so work stays within the image.
      const shown = Math.min(count, Math.max(0, width - x));
      for (let i = 0; i < shown; i++) {
        put(isFourBit ? (i % 2 === 0 ? value >> 4 : value & 0x0f) : value);
      }
      x += count - shown;
    } else if (value === 0) {
      x = 0;
      row++;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      if (p + 2 > bytes.length) fail('truncated run-length delta');
      x += bytes[p] ?? 0;
      row += bytes[p + 1] ?? 0;
      p += 2;
    } else {
      const dataBytes = isFourBit ? Math.ceil(value / 2) : value;
      if (p + dataBytes > bytes.length) fail('truncated run-length data');
      const shown = Math.min(value, Math.max(0, width - x));
      for (let i = 0; i < shown; i++) {
        const byte = bytes[p + (isFourBit ? i >> 1 : i)] ?? 0;
        put(isFourBit ? (i % 2 === 0 ? byte >> 4 : byte & 0x0f) : byte);
      }
      x += value - shown;
      p += dataBytes + (dataBytes % 2);
    }
  }
}

function decodeDib(bytes: Buffer, dibAt: number, pixelsAt: number | null, isIcon: boolean) {
  const header = readDibHeader(bytes, dibAt, isIcon);
  checkSize(header.width, header.height);
  const paletteAt = dibAt + header.bytesBeforePalette;
  const palette = readPalette(bytes, paletteAt, header);
  const paletteBytes =
    header.bitCount <= 8
      ? (header.colorsUsed > 0 && header.colorsUsed < 1 << header.bitCount
          ? header.colorsUsed
          : 1 << header.bitCount) * header.paletteEntrySize
      : 0;
  const at = pixelsAt ?? paletteAt + paletteBytes;
  if (at < 0 || at >= bytes.length) fail('pixel data out of range');
  const rgba = Buffer.alloc(header.width * header.height * 4);
  let hasAlpha = true;
  if (header.compression === BI_RLE8 || header.compression === BI_RLE4) {
    readRunLength(bytes, at, header, palette, rgba);
  } else {
    hasAlpha = readUncompressed(bytes, at, header, palette, rgba);
  }
  return {
    header,
    rgba,
    hasAlpha,
    pixelsEnd: at + rowStride(header.width, header.bitCount) * header.height,
  };
}

/** A whole BMP file into RGBA pixels. */
export function decodeBmp(bytes: Buffer): RgbaImage {
  if (!looksLikeBmp(bytes)) fail('not a BMP file');
  const pixelsAt = bytes.readUInt32LE(10);
  const { header, rgba, hasAlpha } = decodeDib(bytes, 14, pixelsAt, false);
  // 32-bit pixels whose fourth byte is zero everywhere are opaque (most writers leave it unused).
  if (header.bitCount === 32 && !hasAlpha) {
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  }
  return { width: header.width, height: header.height, rgba };
}

interface IconEntry {
  readonly width: number;
  readonly height: number;
  readonly bitCount: number;
  readonly size: number;
  readonly offset: number;
}

/** The largest (then deepest) image of an icon file: its PNG, or its bitmap with the mask applied. */
export function decodeIco(bytes: Buffer): DecodedIcon {
  if (!looksLikeIco(bytes)) fail('not an icon file');
  const count = bytes.readUInt16LE(4);
  if (6 + count * 16 > bytes.length) fail('truncated icon directory');
  const entries: IconEntry[] = [];
  for (let i = 0; i < count; i++) {
    const e = 6 + i * 16;
    const entry = {
      width: bytes[e] || 256,
      height: bytes[e + 1] || 256,
      bitCount: bytes.readUInt16LE(e + 6),
      size: bytes.readUInt32LE(e + 8),
      offset: bytes.readUInt32LE(e + 12),
    };
    if (entry.size === 0 || entry.offset + entry.size > bytes.length)
      fail('icon image out of range');
    entries.push(entry);
  }
  const best = entries.reduce((a, b) =>
    b.width * b.height > a.width * a.height ||
    (b.width * b.height === a.width * a.height && b.bitCount > a.bitCount)
      ? b
      : a,
  );
  const data = bytes.subarray(best.offset, best.offset + best.size);
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE))
    return { kind: 'png', png: data };

  const { header, rgba, hasAlpha, pixelsEnd } = decodeDib(data, 0, null, true);
  if (header.bitCount === 32 && hasAlpha)
    return { width: header.width, height: header.height, rgba };
  // Otherwise the 1-bit AND mask after the colour rows says which pixels are transparent; an
  // icon that leaves the mask out is opaque.
  const maskStride = rowStride(header.width, 1);
  const hasMask = pixelsEnd + maskStride * header.height <= data.length;
  for (let row = 0; row < header.height; row++) {
    const y = header.height - 1 - row;
    for (let x = 0; x < header.width; x++) {
      const o = (y * header.width + x) * 4 + 3;
      const isTransparent =
        hasMask &&
        (((data[pixelsEnd + row * maskStride + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1) === 1;
      rgba[o] = isTransparent ? 0 : 255;
    }
  }
  return { width: header.width, height: header.height, rgba };
}
