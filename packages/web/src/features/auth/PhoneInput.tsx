import { Input, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Calling codes offered by the picker, mainland China first (the default). */
const COUNTRIES = [
  { region: 'CN', code: '86' },
  { region: 'HK', code: '852' },
  { region: 'MO', code: '853' },
  { region: 'TW', code: '886' },
  { region: 'SG', code: '65' },
  { region: 'MY', code: '60' },
  { region: 'JP', code: '81' },
  { region: 'KR', code: '82' },
  { region: 'TH', code: '66' },
  { region: 'VN', code: '84' },
  { region: 'PH', code: '63' },
  { region: 'ID', code: '62' },
  { region: 'IN', code: '91' },
  { region: 'AE', code: '971' },
  { region: 'TR', code: '90' },
  { region: 'RU', code: '7' },
  { region: 'GB', code: '44' },
  { region: 'DE', code: '49' },
  { region: 'FR', code: '33' },
  { region: 'NL', code: '31' },
  { region: 'US', code: '1' },
  { region: 'AU', code: '61' },
  { region: 'BR', code: '55' },
  { region: 'NG', code: '234' },
] as const;
const DEFAULT_CODE = '86';
// Longest codes first, so +852 is not read as +85 or +8.
const BY_LENGTH = [...COUNTRIES].sort((a, b) => b.code.length - a.code.length);

/**
 * Splits a stored number into calling code and national part. A number without '+' is a
 * mainland China number: that is how accounts are stored (and how they sign in) without a code.
 */
export function splitPhone(value: string): { code: string; national: string } {
  const trimmed = value.trim();
  if (!trimmed.startsWith('+')) return { code: DEFAULT_CODE, national: trimmed };
  const digits = trimmed.slice(1);
  const match = BY_LENGTH.find((c) => digits.startsWith(c.code));
  return match
    ? { code: match.code, national: digits.slice(match.code.length) }
    : { code: DEFAULT_CODE, national: trimmed };
}

/** The number sent to the server: China's without a code (as before), others as +code…. */
export function joinPhone(code: string, national: string): string {
  const part = national.trim();
  if (!part) return '';
  if (part.startsWith('+') || code === DEFAULT_CODE) return part;
  return `+${code}${part}`;
}

interface Props {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
}

/** A phone field with a country calling-code picker (an antd form control). */
export function PhoneInput({ id, value = '', onChange, placeholder }: Props) {
  const { t, i18n } = useTranslation();
  const split = splitPhone(value);
  // The picked code is kept while the number is empty (an empty value has no code of its own).
  const [pickedCode, setPickedCode] = useState(split.code);
  const code = value ? split.code : pickedCode;
  const regionNames = useMemo(() => {
    try {
      return new Intl.DisplayNames([i18n.language], { type: 'region' });
    } catch {
      return null;
    }
  }, [i18n.language]);
  const options = COUNTRIES.map((c) => {
    const name = regionNames?.of(c.region) ?? c.region;
    return {
      value: c.code,
      label: `+${c.code}`,
      title: `${name} +${c.code}`,
      search: `${name} ${c.region} +${c.code}`,
      optionLabel: `${name} +${c.code}`,
    };
  });
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        aria-label={t('common.countryCode')}
        data-testid="phone-country"
        value={code}
        style={{ width: 96, flex: 'none' }}
        popupMatchSelectWidth={220}
        showSearch={{ optionFilterProp: 'search' }}
        options={options}
        optionRender={(option) => option.data.optionLabel}
        onChange={(next: string) => {
          setPickedCode(next);
          onChange?.(joinPhone(next, split.national));
        }}
      />
      <Input
        id={id}
        type="tel"
        autoComplete="tel-national"
        placeholder={placeholder}
        value={split.national}
        onChange={(event) => onChange?.(joinPhone(code, event.target.value))}
      />
    </Space.Compact>
  );
}
