import { describe, expect, it } from 'vitest';
import { accountsEn } from '../src/i18n/locales/accounts.en';
import { accountsZhCN } from '../src/i18n/locales/accounts.zh-CN';
import { botsEn } from '../src/i18n/locales/bots.en';
import { botsZhCN } from '../src/i18n/locales/bots.zh-CN';
import { en } from '../src/i18n/locales/en';
import { squareEn } from '../src/i18n/locales/square.en';
import { squareZhCN } from '../src/i18n/locales/square.zh-CN';
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
  // The screen bundles join the same `translation` tree, so they must not reuse its sections.
  it('keeps the screen bundles apart from the main texts', () => {
    for (const key of Object.keys(accountsZhCN)) expect(zhCN, key).not.toHaveProperty(key);
    for (const key of Object.keys(botsZhCN)) {
      expect(zhCN, key).not.toHaveProperty(key);
      expect(accountsZhCN, key).not.toHaveProperty(key);
    }
    for (const key of Object.keys(squareZhCN)) {
      expect(zhCN, key).not.toHaveProperty(key);
      expect(accountsZhCN, key).not.toHaveProperty(key);
      expect(botsZhCN, key).not.toHaveProperty(key);
    }
  });

  const zhLeaves = leaves({ ...zhCN, ...accountsZhCN, ...botsZhCN, ...squareZhCN });
  const enLeaves = leaves({ ...en, ...accountsEn, ...botsEn, ...squareEn });

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
