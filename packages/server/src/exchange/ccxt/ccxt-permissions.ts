import type { Exchange as CcxtExchange } from 'ccxt';
import type { ExchangeCapabilities } from '../exchange-capabilities.js';
import type { KeyPermissions } from '../exchange-client.js';

const UNKNOWN: KeyPermissions = { canTrade: null, canWithdraw: null, ipRestricted: null };

/** Calls one of ccxt's implicit (per-endpoint) methods, which its type declarations leave out. */
async function callImplicit(instance: CcxtExchange, name: string): Promise<unknown> {
  const method: unknown = Reflect.get(instance, name);
  if (typeof method !== 'function') throw new TypeError(`ccxt ${instance.id} has no ${name}`);
  return (await Reflect.apply(method, instance, [{}])) as unknown;
}

interface OkxAccountConfig {
  readonly perm?: unknown;
  readonly ip?: unknown;
}

function firstOkxConfig(response: unknown): OkxAccountConfig {
  if (typeof response !== 'object' || response === null) return {};
  const data: unknown = Reflect.get(response, 'data');
  if (!Array.isArray(data) || typeof data[0] !== 'object' || data[0] === null) return {};
  return data[0] as OkxAccountConfig;
}

/**
 * What the key may do, as the capability table says to read it. A ccxt error propagates (the
 * caller translates it): an invalid key answers invalid_key whichever the source.
 */
export async function readPermissions(
  instance: CcxtExchange,
  caps: ExchangeCapabilities,
): Promise<KeyPermissions> {
  switch (caps.permissionSource) {
    case 'validate-only':
      // A signed futures read proves the key works for futures; what else it may do is unknown.
      await instance.fetchBalance();
      return UNKNOWN;
    case 'okx-account-config': {
      const config = firstOkxConfig(await callImplicit(instance, 'privateGetAccountConfig'));
      const perms =
        typeof config.perm === 'string' ? config.perm.split(',').map((p) => p.trim()) : null;
      return {
        canTrade: perms ? perms.includes('trade') : null,
        canWithdraw: perms ? perms.includes('withdraw') : null,
        ipRestricted: typeof config.ip === 'string' ? config.ip.trim() !== '' : null,
      };
    }
  }
}
