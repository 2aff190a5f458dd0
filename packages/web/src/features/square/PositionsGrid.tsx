import type { StrategyPosition } from '@quantsquare/contracts';
import { Card, Empty, Flex, Spin, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatPercent, formatSignedMoney } from '../../shared/format/money';
import { useToneColor } from './StrategyCardView';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex justify="space-between" gap={8}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span style={{ fontVariantNumeric: 'tabular-nums', textAlign: 'end' }}>{children}</span>
    </Flex>
  );
}

interface Props {
  positions: StrategyPosition[];
  isLoading: boolean;
  errorText: string | null;
}

/**
 * Current positions (document 2 §2): symbol, long or short, leverage (default 1), contracts,
 * entry price, mark price (the entry price when unknown), unrealised P&L and its percentage.
 */
export function PositionsGrid({ positions, isLoading, errorText }: Props) {
  const { t, i18n } = useTranslation();
  const tone = useToneColor();
  const locale = i18n.language;
  return (
    <Card size="small" title={t('strategy.positions.title')} data-testid="strategy-positions">
      {isLoading ? (
        <Flex justify="center" style={{ padding: 24 }}>
          <Spin />
        </Flex>
      ) : positions.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={errorText ?? t('strategy.positions.empty')}
          data-testid="strategy-positions-empty"
        />
      ) : (
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 230px), 1fr))',
            gap: 12,
          }}
        >
          {positions.map((position) => (
            <Card
              key={`${position.symbol}-${position.side}`}
              size="small"
              type="inner"
              data-testid="strategy-position"
              title={
                <Flex gap={6} align="center" wrap style={{ paddingBlock: 4 }}>
                  <Typography.Text strong>{position.symbol}</Typography.Text>
                  <Tag color={position.side === 'long' ? 'success' : 'error'}>
                    {t(`strategy.positions.${position.side}`)}
                  </Tag>
                  <Tag>
                    {t('strategy.positions.leverageValue', { leverage: position.leverage || 1 })}
                  </Tag>
                </Flex>
              }
            >
              <Flex vertical gap={4}>
                <Field label={t('strategy.positions.contracts')}>
                  {formatAmount(position.contracts, locale)}
                </Field>
                <Field label={t('strategy.positions.entryPrice')}>
                  {formatAmount(position.entry_price, locale)}
                </Field>
                <Field label={t('strategy.positions.markPrice')}>
                  {formatAmount(position.mark_price ?? position.entry_price, locale)}
                </Field>
                <Field label={t('strategy.positions.pnl')}>
                  <span style={{ color: tone(position.unrealized_pnl) }}>
                    {formatSignedMoney(position.unrealized_pnl, locale)} (
                    {formatPercent(position.percentage, locale, true)})
                  </span>
                </Field>
              </Flex>
            </Card>
          ))}
        </div>
      )}
    </Card>
  );
}
