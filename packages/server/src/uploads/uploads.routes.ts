import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../common/errors.js';
import type { ImageStore } from './image-store.js';

/**
 * Serves stored uploads: only server-made names, the stored type as Content-Type, `nosniff`, and
 * a CSP that keeps a file from ever running as a page.
 */
export const uploadsRoutes =
  (deps: { images: ImageStore }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/uploads/:folder/:name',
      {
        schema: {
          hide: true,
          params: z.object({ folder: z.string().max(32), name: z.string().max(64) }),
        },
      },
      async (request, reply) => {
        const found = deps.images.fileFor(request.params.folder, request.params.name);
        const info = found ? await stat(found.file).catch(() => undefined) : undefined;
        if (!found || !info?.isFile()) throw new NotFound('File not found');
        return reply
          .header('content-type', found.contentType)
          .header('content-length', String(info.size))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(createReadStream(found.file));
      },
    );
  };
