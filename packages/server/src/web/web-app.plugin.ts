import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES } from '@quantsquare/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built SPA from WEB_DIST_DIR. Any GET outside /api that is not a file answers
 * index.html so client routes (/login, /my/security…) load the app; /api/* stays JSON 404.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: { webDistDir: string },
): Promise<void> {
  const indexFile = path.join(options.webDistDir, 'index.html');
  const hasWebApp = existsSync(indexFile);

  if (hasWebApp) {
    await app.register(fastifyStatic, { root: options.webDistDir, wildcard: false, index: false });
    // Hashed assets are immutable; index.html must always be revalidated.
    app.get('/', (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  } else {
    app.get('/', (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(
          `The QuantSquare web app is not built (no ${indexFile}). Run "npm run build:web", or use the API under /api.`,
        ),
    );
  }

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const isApi = urlPath === '/api' || urlPath.startsWith('/api/');
    if (hasWebApp && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      const relative = safeDecode(urlPath).replace(/^\/+/, '');
      const candidate = path.resolve(options.webDistDir, relative);
      if (relative && candidate.startsWith(options.webDistDir + path.sep) && isFile(candidate)) {
        return reply.sendFile(path.relative(options.webDistDir, candidate));
      }
      // A missing asset (has an extension) is a real 404; anything else is a client route.
      if (!path.extname(relative)) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
    }
    return reply
      .status(404)
      .send({ error: `Not found: ${request.method} ${urlPath}`, code: ERROR_CODES.notFound });
  });
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
