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
    // Hashed assets are immutable (a new build gives new names), so a browser keeps them and its
    // compiled code for a year; index.html must always be revalidated. The build writes a
    // brotli and a gzip copy beside each asset, sent to browsers that accept them.
    await app.register(fastifyStatic, {
      root: options.webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, filePath) => {
        response.setHeader('vary', 'accept-encoding');
        if (response.getHeader('cache-control') === undefined) {
          response.setHeader(
            'cache-control',
            isHashedAsset(options.webDistDir, filePath) ? IMMUTABLE : 'no-cache',
          );
        }
      },
    });
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

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Vite's output under assets/ carries a content hash in its name (`react-C1iE8mnY.js`). */
function isHashedAsset(root: string, filePath: string): boolean {
  const relative = path.relative(root, filePath).split(path.sep);
  return relative[0] === 'assets' && relative.length === 2;
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
