import { describe, expect, it } from 'vitest';
import { accountsEn } from '../src/i18n/locales/accounts.en';
import { accountsZhCN } from '../src/i18n/locales/accounts.zh-CN';
import { botsEn } from '../src/i18n/locales/bots.en';
import { botsZhCN } from '../src/i18n/locales/bots.zh-CN';
import { builderEn } from '../src/i18n/locales/builder.en';
import { builderZhCN } from '../src/i18n/locales/builder.zh-CN';
import { copyEn } from '../src/i18n/locales/copy.en';
import { copyZhCN } from '../src/i18n/locales/copy.zh-CN';
import { en } from '../src/i18n/locales/en';
import { fieldErrorsEn } from '../src/i18n/locales/field-errors.en';
import { fieldErrorsZhCN } from '../src/i18n/locales/field-errors.zh-CN';
import { helpEn } from '../src/i18n/locales/help.en';
import { helpZhCN } from '../src/i18n/locales/help.zh-CN';
import { notificationsEn } from '../src/i18n/locales/notifications.en';
import { notificationsZhCN } from '../src/i18n/locales/notifications.zh-CN';
import { optimiseEn } from '../src/i18n/locales/optimise.en';
import { optimiseZhCN } from '../src/i18n/locales/optimise.zh-CN';
import { squareEn } from '../src/i18n/locales/square.en';
import { squareZhCN } from '../src/i18n/locales/square.zh-CN';
import { walletEn } from '../src/i18n/locales/wallet.en';
import { walletZhCN } from '../src/i18n/locales/wallet.zh-CN';
import { webhooksEn } from '../src/i18n/locales/webhooks.en';
import { webhooksZhCN } from '../src/i18n/locales/webhooks.zh-CN';
import { zhCN } from '../src/i18n/locales/zh-CN';

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') result.set(path, value);
    else for (const [k, v] of leaves(value, path)) result.set(k, v);
  }
  return result;
}

describe('translations', () => {
  // Every screen bundle as [zh-CN, en]; they join the same `translation` tree.
  const bundles: [Tree, Tree][] = [
    [accountsZhCN, accountsEn],
    [botsZhCN, botsEn],
    [helpZhCN, helpEn],
    [walletZhCN, walletEn],
    [fieldErrorsZhCN, fieldErrorsEn],
    [squareZhCN, squareEn],
    [webhooksZhCN, webhooksEn],
    [copyZhCN, copyEn],
    [builderZhCN, builderEn],
    [notificationsZhCN, notificationsEn],
    [optimiseZhCN, optimiseEn],
  ];

  it('keeps the screen bundles apart from the main texts and from each other', () => {
    const seen: Tree[] = [zhCN];
    for (const [bundle] of bundles) {
      for (const key of Object.keys(bundle)) {
        for (const other of seen) expect(other, key).not.toHaveProperty(key);
      }
      seen.push(bundle);
    }
  });

  const zhLeaves = leaves(Object.assign({}, zhCN, ...bundles.map(([zh]) => zh)));
  const enLeaves = leaves(Object.assign({}, en, ...bundles.map(([, english]) => english)));

  it('has the same keys in both languages', () => {
    expect([...enLeaves.keys()].sort()).toEqual([...zhLeaves.keys()].sort());
  });

  it('has no empty texts and no Chinese in English (language names aside)', () => {
    for (const [key, value] of enLeaves) {
      expect(value, key).not.toBe('');
      if (!key.startsWith('nav.languageNames')) expect(value, key).not.toMatch(/[\u4e00-\u9fff]/);
    }
    for (const [key, value] of zhLeaves) expect(value, key).not.toBe('');
  });

  it('uses the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    for (const [key, value] of zhLeaves) {
      expect(placeholders(enLeaves.get(key) ?? ''), key).toEqual(placeholders(value));
    }
  });
});
