import type { PublishedStrategy } from '@quantsquare/contracts';
import { Card, Flex, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useStrategies } from '../../api/trading';
import { formatPercent } from '../../shared/format/money';
import { describeRules } from '../../shared/rules/describe-rules';

/**
 * The strategies the published account's bots run: always named, with their rules (a rule set's
 * sentence, a built-in's parameters) and protections when the owner shows them.
 */
export function StrategyRules({ strategies }: { strategies: readonly PublishedStrategy[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('strategy.rules.title')} data-testid="strategy-rules">
      {strategies.length === 0 ? (
        <Typography.Text type="secondary">{t('strategy.rules.empty')}</Typography.Text>
      ) : (
        <List
          size="small"
          split
          dataSource={[...strategies]}
          renderItem={(strategy, index) => (
            <List.Item style={{ paddingInline: 0 }} data-testid={`strategy-rules-${index}`}>
              <StrategyItem strategy={strategy} />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

function StrategyItem({ strategy }: { strategy: PublishedStrategy }) {
  const { t, i18n } = useTranslation();
  const protections = (
    [
      ['stopLoss', strategy.stop_loss_pct],
      ['takeProfit', strategy.take_profit_pct],
      ['trailingStop', strategy.trailing_stop_pct],
    ] as const
  ).filter(([, value]) => value !== null);
  return (
    <Flex vertical gap={4} style={{ minWidth: 0, width: '100%' }}>
      <Flex wrap gap={6} align="center">
        <Typography.Text strong data-testid="strategy-rules-name">
          {strategy.name}
        </Typography.Text>
        {strategy.type === 'custom' && <Tag color="geekblue">{t('strategy.rules.custom')}</Tag>}
        <Tag color={strategy.is_running ? 'green' : 'default'}>
          {t(strategy.is_running ? 'strategy.rules.running' : 'strategy.rules.stopped')}
        </Tag>
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {strategy.symbol} · {strategy.timeframe}
      </Typography.Text>
      {!strategy.rules_shown ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="rules-private">
          {t('strategy.rules.private')}
        </Typography.Text>
      ) : (
        <>
          {strategy.rules && (
            <ul className="qs-rule-sentences" data-testid="rules-sentences">
              {describeRules(t, strategy.rules).map((sentence) => (
                <li key={sentence}>{sentence}</li>
              ))}
            </ul>
          )}
          {strategy.parameters && Object.keys(strategy.parameters).length > 0 && (
            <BuiltInParameters type={strategy.type} parameters={strategy.parameters} />
          )}
          {protections.length > 0 && (
            <Typography.Text style={{ fontSize: 12 }} data-testid="rules-protections">
              {protections
                .map(
                  ([key, value]) =>
                    `${t(`strategy.rules.${key}`)} ${formatPercent(value, i18n.language)}`,
                )
                .join(' · ')}
            </Typography.Text>
          )}
        </>
      )}
    </Flex>
  );
}

/** A built-in's parameters under the catalogue's names (as the bot form shows them). */
function BuiltInParameters({
  type,
  parameters,
}: {
  type: string;
  parameters: Readonly<Record<string, number>>;
}) {
  const catalog = useStrategies();
  if (catalog.isPending) return null;
  const specs = catalog.data?.results.find((entry) => entry.type === type)?.parameter_specs ?? [];
  const label = (name: string) => specs.find((spec) => spec.name === name)?.display_name ?? name;
  return (
    <Typography.Text style={{ fontSize: 12 }} data-testid="rules-parameters">
      {Object.entries(parameters)
        .map(([name, value]) => `${label(name)} ${value}`)
        .join(' · ')}
    </Typography.Text>
  );
}
