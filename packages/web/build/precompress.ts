import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

// Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text asset of the build, so the
// server sends the compressed bytes (@fastify/static `preCompressed`) without compressing on
// each request. Files too small to gain are left alone.
const COMPRESSIBLE = /\.(js|css|svg|json|html|txt)$/;
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'quantsquare:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 10,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
