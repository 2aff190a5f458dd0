import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  BitmapDecodeError,
  decodeBmp,
  decodeIco,
  looksLikeBmp,
  looksLikeIco,
  MAX_BITMAP_PIXELS,
  type RgbaImage,
} from '../../src/uploads/bitmap-decoders.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));

async function sourcePixels(name: string): Promise<RgbaImage> {
  const { data, info } = await sharp(fixture(name))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: data };
}

/** Every pixel within `tolerance` per channel; colour is ignored where both are transparent. */
function expectSamePixels(actual: RgbaImage, expected: RgbaImage, tolerance = 0) {
  expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
  for (let i = 0; i < expected.rgba.length; i += 4) {
    const a = [...actual.rgba.subarray(i, i + 4)];
    const e = [...expected.rgba.subarray(i, i + 4)];
    const where = `pixel ${i / 4}: ${a} vs ${e}`;
    expect(Math.abs((a[3] ?? 0) - (e[3] ?? 0)), where).toBeLessThanOrEqual(tolerance);
    if (e[3] === 0) continue;
    for (let c = 0; c < 3; c++) {
      expect(Math.abs((a[c] ?? 0) - (e[c] ?? 0)), where).toBeLessThanOrEqual(tolerance);
    }
  }
}

/** A BMP file around a 40-byte info header, a palette and pixel rows. */
function bmpFile(options: {
  width: number;
  height: number;
  bitCount: number;
  compression?: number;
  palette?: number[][];
  pixels: number[];
}): Buffer {
  const palette = Buffer.from(
    (options.palette ?? []).flatMap(([r = 0, g = 0, b = 0]) => [b, g, r, 0]),
  );
  const pixels = Buffer.from(options.pixels);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + palette.length + pixels.length, 2);
  header.writeUInt32LE(54 + palette.length, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(options.width, 18);
  header.writeInt32LE(options.height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(options.bitCount, 28);
  header.writeUInt32LE(options.compression ?? 0, 30);
  header.writeUInt32LE(pixels.length, 34);
  header.writeUInt32LE(options.palette?.length ?? 0, 46);
  return Buffer.concat([header, palette, pixels]);
}

/** An icon file holding one image. */
function icoFile(width: number, height: number, image: Buffer): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(1, 4);
  head[6] = width % 256;
  head[7] = height % 256;
  head.writeUInt16LE(1, 10);
  head.writeUInt16LE(24, 12);
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(22, 18);
  return Buffer.concat([head, image]);
}

const pixel = (image: RgbaImage, x: number, y: number) => [
  ...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];

describe('the BMP decoder', () => {
  it.each([
    ['bmp24.bmp', 'source.png', 0],
    ['bmp4.bmp', 'source.png', 0],
    ['bmp8.bmp', 'source-many.png', 0],
    ['bmp-rle8.bmp', 'source-many.png', 0],
    ['bmp1.bmp', 'source-bw.png', 0],
    // Five or six bits per channel: within one step of the 8-bit source.
    ['bmp16-555.bmp', 'source.png', 8],
    ['bmp16-565.bmp', 'source.png', 8],
    ['bmp32-v5.bmp', 'source-alpha.png', 0],
  ])('reads %s as ImageMagick wrote it (from %s)', async (file, source, tolerance) => {
    const bytes = fixture(file);
    expect(looksLikeBmp(bytes)).toBe(true);
    expectSamePixels(decodeBmp(bytes), await sourcePixels(source), tolerance);
  });

  it('reads top-down rows (a negative height)', () => {
    // 2 × 2, 24-bit: red green / blue white, top row first; rows padded to 8 bytes.
    const image = decodeBmp(
      bmpFile({
        width: 2,
        height: -2,
        bitCount: 24,
        pixels: [0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0],
      }),
    );
    expect(pixel(image, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(pixel(image, 1, 0)).toEqual([0, 255, 0, 255]);
    expect(pixel(image, 0, 1)).toEqual([0, 0, 255, 255]);
    expect(pixel(image, 1, 1)).toEqual([255, 255, 255, 255]);
  });

  it('reads 4-bit run lengths, leaving skipped pixels transparent', () => {
    // 4 × 2: bottom row a run of 3 alternating 1,2 then end of line; top row: delta 1 right,
    // 3 literal nibbles (2,1,2), end of bitmap.
    const image = decodeBmp(
      bmpFile({
        width: 4,
        height: 2,
        bitCount: 4,
        compression: 2,
        palette: [
          [0, 0, 0],
          [255, 0, 0],
          [0, 0, 255],
        ],
        pixels: [3, 0x12, 0, 0, 0, 2, 1, 0, 0, 3, 0x21, 0x20, 0, 1],
      }),
    );
    expect([0, 1, 2, 3].map((x) => pixel(image, x, 1))).toEqual([
      [255, 0, 0, 255],
      [0, 0, 255, 255],
      [255, 0, 0, 255],
      [0, 0, 0, 0],
    ]);
    expect([0, 1, 2, 3].map((x) => pixel(image, x, 0))).toEqual([
      [0, 0, 0, 0],
      [0, 0, 255, 255],
      [255, 0, 0, 255],
      [0, 0, 255, 255],
    ]);
  });

  it('treats 32-bit pixels whose fourth byte is always zero as opaque', () => {
    const image = decodeBmp(
      bmpFile({ width: 1, height: 1, bitCount: 32, pixels: [10, 20, 30, 0] }),
    );
    expect(pixel(image, 0, 0)).toEqual([30, 20, 10, 255]);
  });

  it.each([
    ['a truncated file', fixture('bmp24.bmp').subarray(0, 100)],
    ['a truncated header', fixture('bmp24.bmp').subarray(0, 30)],
    [
      'a canvas larger than allowed',
      bmpFile({ width: 65_536, height: 65_536, bitCount: 1, pixels: [0, 0, 0, 0] }),
    ],
    ['a zero width', bmpFile({ width: 0, height: 1, bitCount: 24, pixels: [0, 0, 0, 0] })],
    ['an unknown bit depth', bmpFile({ width: 1, height: 1, bitCount: 7, pixels: [0, 0, 0, 0] })],
    [
      'embedded JPEG compression',
      bmpFile({ width: 1, height: 1, bitCount: 24, compression: 4, pixels: [0, 0, 0, 0] }),
    ],
    [
      'a top-down run-length bitmap',
      bmpFile({ width: 1, height: -1, bitCount: 8, compression: 1, pixels: [0, 1] }),
    ],
    [
      'run-length data that stops early',
      bmpFile({ width: 2, height: 2, bitCount: 8, compression: 1, pixels: [2, 0] }),
    ],
  ])('refuses %s', (_name, bytes) => {
    expect(() => decodeBmp(bytes)).toThrow(BitmapDecodeError);
  });

  it('refuses bytes that only start like a bitmap', () => {
    const lie = Buffer.concat([
      Buffer.from('BM'),
      Buffer.from('<script>alert(1)</script>'.repeat(3)),
    ]);
    expect(looksLikeBmp(lie)).toBe(false);
    expect(() => decodeBmp(lie)).toThrow(BitmapDecodeError);
  });

  it('keeps its pixel limit at 4096 × 4096', () => {
    expect(MAX_BITMAP_PIXELS).toBe(4096 * 4096);
  });
});

describe('the ICO decoder', () => {
  it('reads a 32-bit bitmap icon with its alpha', async () => {
    const bytes = fixture('ico-bmp32.ico');
    expect(looksLikeIco(bytes)).toBe(true);
    const decoded = decodeIco(bytes);
    if ('kind' in decoded) throw new Error('expected pixels');
    expectSamePixels(decoded, await sourcePixels('source-alpha.png'));
  });

  it('reads a 4-bit bitmap icon and its mask', async () => {
    const decoded = decodeIco(fixture('ico-bmp8.ico'));
    if ('kind' in decoded) throw new Error('expected pixels');
    expectSamePixels(decoded, await sourcePixels('source.png'));
  });

  it('hands over an embedded PNG as it is', async () => {
    const decoded = decodeIco(fixture('ico-png-256.ico'));
    if (!('kind' in decoded)) throw new Error('expected a PNG');
    const metadata = await sharp(decoded.png).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 256, 256]);
  });

  it('makes the pixels the AND mask marks transparent', () => {
    // 2 × 1, 24-bit colour rows (stored height 2), then a 1-bit mask hiding the second pixel.
    const dib = Buffer.alloc(40);
    dib.writeUInt32LE(40, 0);
    dib.writeInt32LE(2, 4);
    dib.writeInt32LE(2, 8);
    dib.writeUInt16LE(1, 12);
    dib.writeUInt16LE(24, 14);
    const colours = Buffer.from([0, 0, 255, 0, 255, 0, 0, 0]);
    const mask = Buffer.from([0b0100_0000, 0, 0, 0]);
    const decoded = decodeIco(icoFile(2, 1, Buffer.concat([dib, colours, mask])));
    if ('kind' in decoded) throw new Error('expected pixels');
    expect(pixel(decoded, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(pixel(decoded, 1, 0)[3]).toBe(0);
  });

  it.each([
    [
      'an image beyond the file',
      () => {
        const bytes = Buffer.from(fixture('ico-bmp32.ico'));
        bytes.writeUInt32LE(1_000_000, 18);
        return bytes;
      },
    ],
    [
      'a directory longer than the file',
      () => {
        const bytes = Buffer.from(fixture('ico-bmp32.ico').subarray(0, 22));
        bytes.writeUInt16LE(50, 4);
        return bytes;
      },
    ],
    [
      'a cursor (type 2)',
      () => {
        const bytes = Buffer.from(fixture('ico-bmp32.ico'));
        bytes.writeUInt16LE(2, 2);
        return bytes;
      },
    ],
    [
      'an odd stored height',
      () => {
        const bytes = Buffer.from(fixture('ico-bmp32.ico'));
        bytes.writeInt32LE(9, 22 + 8);
        return bytes;
      },
    ],
  ])('refuses %s', (_name, make) => {
    expect(() => decodeIco(make())).toThrow(BitmapDecodeError);
  });
});
