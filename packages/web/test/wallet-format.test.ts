import { describe, expect, it } from 'vitest';
import { formatCoinAmount } from '../src/shared/format/money';
import {
  depositProof,
  formatDateUtc8,
  shortHash,
  signedAmount,
} from '../src/shared/format/wallet-format';

describe('wallet display', () => {
  it('formats coin amounts exactly, with 2 to 8 decimals', () => {
    expect(formatCoinAmount('100.00000000', 'en')).toBe('100.00');
    expect(formatCoinAmount('0.50000000', 'en')).toBe('0.50');
    expect(formatCoinAmount('1234567.12345678', 'en')).toBe('1,234,567.12345678');
    expect(formatCoinAmount('999999999.99', 'zh-CN')).toBe('999,999,999.99');
    expect(formatCoinAmount('abc', 'en')).toBe('—');
    expect(formatCoinAmount(null, 'en')).toBe('—');
  });

  it('signs credits and debits', () => {
    expect(signedAmount({ direction: 'credit', amount: '50.00000000' }, 'en')).toBe('+50.00');
    expect(signedAmount({ direction: 'debit', amount: '10.00000000' }, 'en')).toBe('−10.00');
  });

  it('shortens long hashes and keeps short ones', () => {
    expect(shortHash('a'.repeat(64))).toBe(`${'a'.repeat(8)}…${'a'.repeat(6)}`);
    expect(shortHash('REF-123')).toBe('REF-123');
    expect(shortHash(null)).toBe('—');
  });

  it('names the proof of a deposit by its kind', () => {
    expect(depositProof({ is_offchain: true, tx_hash: null, offchain_reference: 'R1' })).toBe('R1');
    expect(depositProof({ is_offchain: false, tx_hash: 'H', offchain_reference: null })).toBe('H');
  });

  it('shows dates at UTC+8', () => {
    expect(formatDateUtc8('2025-03-01T17:00:00Z')).toBe('2025-03-02');
    expect(formatDateUtc8('nonsense')).toBe('—');
  });
});
