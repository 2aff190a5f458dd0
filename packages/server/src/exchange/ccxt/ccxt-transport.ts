// The HTTP transport of a ccxt instance, shared by the instances of one venue. On its first
// request each ccxt instance imports undici and opens its own keep-alive pool (an undici Agent):
// a thousand accounts meant a thousand pools, a new connection (and, at a real exchange, a TLS
// handshake) on every account's first order, and three module imports per instance. Connections
// carry nothing of an account (every request is signed on its own), so the instances of one
// venue can send through one pool: ccxt's Agent, up to 256 sockets per origin, one request per
// socket at a time, idle sockets kept 60 s; no timeout of the first instance is baked into it
// (each request keeps its own instance's). What is shared is the state ccxt's
// loadFetchImplementation leaves on an instance; if a ccxt version no longer leaves it (an undici
// Agent and the module), nothing is shared and every instance loads its own, as before.

/** The fields loadFetchImplementation sets on a node instance (ccxt 4.5). */
const TRANSPORT_FIELDS = [
  'undiciModule',
  'fetchImplementation',
  'fetchDispatcher',
  'zlibModule',
  'httpStatusTexts',
  'fetchIsNative',
  'AbortError',
  'FetchError',
] as const;

export type CcxtTransport = Readonly<Record<(typeof TRANSPORT_FIELDS)[number], unknown>>;

type Fields = Record<string, unknown>;

/** A loaded instance's transport, or undefined when it has none to share. */
export function transportOf(instance: object): CcxtTransport | undefined {
  const fields = instance as Fields;
  const dispatcher = fields.fetchDispatcher as { dispatch?: unknown } | undefined;
  if (typeof dispatcher?.dispatch !== 'function' || fields.undiciModule === undefined) {
    return undefined;
  }
  return Object.freeze(
    Object.fromEntries(TRANSPORT_FIELDS.map((name) => [name, fields[name]])) as CcxtTransport,
  );
}

/**
 * Makes `instance` send through `transport`, unless it has begun loading its own (then it keeps
 * that). Answers whether it adopted the shared one.
 */
export function adoptTransport(instance: object, transport: CcxtTransport): boolean {
  const fields = instance as Fields;
  if (fields.fetchImplementationLoading !== undefined) return false;
  Object.assign(fields, transport);
  fields.fetchImplementationLoading = Promise.resolve();
  return true;
}
