import type { CopyRelation, CopyStatus } from '@quantsquare/contracts';
import { Button, Flex, Tag, Typography, theme } from 'antd';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPercent, formatSignedMoney } from '../../shared/format/money';
import { type CopyRowAction, copyActionsFor, copyStatusColor, toNumber } from './copy-format';

export function CopyStatusTag({ status }: { status: CopyStatus }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={copyStatusColor(status)}
      style={{ marginInlineEnd: 0 }}
      data-testid="copy-status"
      data-status={status}
    >
      {t(`copy.status.${status}`)}
    </Tag>
  );
}

/** The cross-exchange and reverse badges of a relation. */
export function CopyBadges({ relation }: { relation: CopyRelation }) {
  const { t } = useTranslation();
  return (
    <>
      {relation.is_cross_exchange && (
        <Tag color="orange" style={{ marginInlineEnd: 0 }} data-testid="copy-badge-cross">
          {t('copy.badges.crossExchange')}
        </Tag>
      )}
      {relation.copy_mode === 'reverse' && (
        <Tag color="purple" style={{ marginInlineEnd: 0 }} data-testid="copy-badge-reverse">
          {t('copy.badges.reverse')}
        </Tag>
      )}
    </>
  );
}

/** A USDT P&L decimal string, signed and coloured. */
export function PnlText({ value, strong }: { value: string; strong?: boolean }) {
  const { i18n } = useTranslation();
  const { token } = theme.useToken();
  const n = toNumber(value) ?? 0;
  const color = n > 0 ? token.colorSuccess : n < 0 ? token.colorError : undefined;
  // USDT with 2 decimals, as every P&L of the product (the stored value keeps all of them).
  const text = formatSignedMoney(n, i18n.language);
  return (
    <Typography.Text strong={strong} style={{ color, fontVariantNumeric: 'tabular-nums' }}>
      {text}
    </Typography.Text>
  );
}

export function PercentText({ value }: { value: number }) {
  const { i18n } = useTranslation();
  const { token } = theme.useToken();
  const color = value > 0 ? token.colorSuccess : value < 0 ? token.colorError : undefined;
  return (
    <Typography.Text style={{ color, fontVariantNumeric: 'tabular-nums' }}>
      {formatPercent(value, i18n.language, true)}
    </Typography.Text>
  );
}

/** A label over a figure. */
export function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      <div style={{ fontVariantNumeric: 'tabular-nums', fontWeight: 500, whiteSpace: 'nowrap' }}>
        {children}
      </div>
    </div>
  );
}

/** The buttons a relation's status allows (document 2 §4). */
export function CopyActionButtons({
  relation,
  busy,
  onAction,
}: {
  relation: CopyRelation;
  busy: boolean;
  onAction: (relation: CopyRelation, action: CopyRowAction) => void;
}) {
  const { t } = useTranslation();
  const click = (action: CopyRowAction) => (event: MouseEvent) => {
    event.stopPropagation();
    onAction(relation, action);
  };
  return (
    <Flex gap={8} wrap>
      {copyActionsFor(relation.status).map((action) => (
        <Button
          key={action}
          size="small"
          danger={action === 'stop' || action === 'delete'}
          disabled={busy}
          onClick={click(action)}
          autoInsertSpace={false}
          data-testid={`copy-${action}`}
        >
          {t(`copy.actions.${action}`)}
        </Button>
      ))}
    </Flex>
  );
}
