import {
  COPY_ENTRY_DISTANCE_MAX_PERCENT,
  COPY_MODES,
  type CopyMode,
  type ExchangeApi,
} from '@quantsquare/contracts';
import { Checkbox, Flex, Form, InputNumber, Radio, Select, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountName } from '../../shared/format/account-format';

// Field groups of the copy modal; the modal owns their values.

/** The account to copy on, tagged with its venue, paper, and a venue other than the leader's. */
export function CopyAccountField({
  accounts,
  targetExchange,
  value,
  onChange,
}: {
  accounts: readonly ExchangeApi[];
  targetExchange: string | null;
  value: number | null;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('copy.modal.account')} style={{ marginBottom: 12 }}>
      <Select<number>
        value={value ?? undefined}
        onChange={onChange}
        placeholder={t('copy.modal.accountPlaceholder')}
        data-testid="copy-account"
        options={accounts.map((a) => {
          const name = accountName(a, t('copy.modal.experience'));
          return {
            value: a.id,
            title: name,
            label: (
              <Flex gap={6} align="center" style={{ minWidth: 0 }}>
                <span
                  style={{
                    minWidth: 0,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                  }}
                >
                  {name}
                </span>
                <Tag style={{ marginInlineEnd: 0 }}>{a.exchange.toUpperCase()}</Tag>
                {a.is_paper && <Tag style={{ marginInlineEnd: 0 }}>{t('copy.modal.paper')}</Tag>}
                {targetExchange !== null && a.exchange !== targetExchange && (
                  <Tag color="orange" style={{ marginInlineEnd: 0 }}>
                    {t('copy.modal.crossExchange')}
                  </Tag>
                )}
              </Flex>
            ),
          };
        })}
      />
    </Form.Item>
  );
}

/** The copy mode, each with its one-line hint. */
export function CopyModeField({
  value,
  onChange,
}: {
  value: CopyMode;
  onChange: (mode: CopyMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('copy.modal.mode')} style={{ marginBottom: 12 }}>
      <Radio.Group
        value={value}
        onChange={(event) => onChange(event.target.value as CopyMode)}
        data-testid="copy-mode"
      >
        <Flex vertical gap={4}>
          {COPY_MODES.map((m) => (
            <Radio key={m} value={m} data-testid={`copy-mode-${m}`}>
              {t(`copy.modes.${m}`)}{' '}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`copy.modeHints.${m}`)}
              </Typography.Text>
            </Radio>
          ))}
        </Flex>
      </Radio.Group>
    </Form.Item>
  );
}

/** Joining positions already open, and how far from the leader's entry that is allowed. */
export function CopyLateJoinFields({
  isOn,
  onToggle,
  distance,
  onDistance,
  hasDistanceProblem,
}: {
  isOn: boolean;
  onToggle: (isOn: boolean) => void;
  distance: number | null;
  onDistance: (value: number | null) => void;
  hasDistanceProblem: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item style={{ marginBottom: 12 }} extra={t('copy.modal.lateJoinHint')}>
        <Checkbox
          checked={isOn}
          onChange={(event) => onToggle(event.target.checked)}
          data-testid="copy-late-join"
        >
          {t('copy.modal.lateJoin')}
        </Checkbox>
      </Form.Item>
      {isOn && (
        <Form.Item
          label={t('copy.modal.entryDistance')}
          style={{ marginBottom: 12 }}
          validateStatus={hasDistanceProblem ? 'error' : undefined}
          help={
            hasDistanceProblem
              ? t('copy.modal.entryDistanceRange', { max: COPY_ENTRY_DISTANCE_MAX_PERCENT })
              : undefined
          }
        >
          <InputNumber<number>
            step={0.1}
            value={distance}
            onChange={onDistance}
            style={{ width: 160 }}
            data-testid="copy-entry-distance"
          />
        </Form.Item>
      )}
    </>
  );
}
