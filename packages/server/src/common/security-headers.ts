import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** A Host header fit to put in a policy (host, IPv4/IPv6 and port characters only). */
const SAFE_HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

/**
 * The page's own websocket (/ws/…): 'self' covers ws: and wss: of the same origin in current
 * browsers; the explicit origin keeps older ones working.
 */
function ownWebsocket(request: IncomingMessage): string {
  const host = request.headers.host;
  return host && SAFE_HOST.test(host) ? `ws://${host} wss://${host}` : '';
}

/**
 * Security headers on every answer (app, API, uploads, docs): a Content-Security-Policy without
 * inline script (the built app loads only its own files), nosniff, no framing, no referrer.
 * Styles may be inline: antd writes its CSS-in-JS into <style> elements and style attributes.
 * Images: the app's own files and uploads, and data: URLs (QR codes of the 2FA setup, icons).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", (request) => ownWebsocket(request as IncomingMessage)],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HTTPS deployments only (browsers ignore it over plain HTTP); no subdomains assumed.
    strictTransportSecurity: { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false },
    // Uploaded images are shown by this app only.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
