import { describe, expect, it } from 'vitest';
import { helpEn } from '../src/i18n/locales/help.en';
import { helpZhCN } from '../src/i18n/locales/help.zh-CN';

// The tutorial says what is true about fees: live trades pay the platform nothing (only the
// exchange's own fees); 0.05% is what backtests and paper accounts count. It promised a 0.05%
// platform fee per trade, lower for VIP, which the platform never charged.

function texts(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (node && typeof node === 'object') return Object.values(node).flatMap(texts);
  return [];
}

describe('the tutorial on fees', () => {
  it.each([
    ['zh-CN', helpZhCN, /平台每笔交易收取|VIP\s*更低|VIP\s*费率/],
    ['en', helpEn, /platform charges [\d.]+%|less for VIP|lower for VIP/i],
  ])('%s no longer promises a platform fee per trade or a VIP discount', (_lang, help, claim) => {
    expect(texts(help).filter((text) => claim.test(text))).toEqual([]);
  });

  it('says live trades pay no platform fee, in both languages', () => {
    const risk = (help: typeof helpEn) => help.helpCenter.tutorial.risk.items.i4;
    expect(risk(helpZhCN)).toMatch(/实盘交易平台不收取手续费/);
    expect(risk(helpEn)).toMatch(/no fee on live trades/);
  });
});
