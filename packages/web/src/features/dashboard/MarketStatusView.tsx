import { type MarketStatusResponse, TIMEFRAMES } from '@quantsquare/contracts';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../shared/ui/Spinner';
import { Dot, Note, Pill, Text } from '../../shared/ui/ui';

interface Props {
  status: MarketStatusResponse | undefined;
  isLoading: boolean;
  isError: boolean;
}

/** Timeframes in the spec's order, then any others the server reports. */
function timeframesOf(symbols: MarketStatusResponse['exchanges'][string]['symbols']): string[] {
  const seen = new Set<string>();
  for (const entry of Object.values(symbols))
    for (const tf of Object.keys(entry.timeframes)) seen.add(tf);
  const known = TIMEFRAMES.filter((tf) => seen.has(tf));
  const others = [...seen].filter((tf) => !(TIMEFRAMES as readonly string[]).includes(tf)).sort();
  return [...known, ...others];
}

/** Per exchange: symbols × timeframes with an is_fresh dot each. */
export function MarketStatusView({ status, isLoading, isError }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (isLoading) {
    return (
      <Note>
        <Spinner size="small" /> {t('dashboard.marketStatus.loading')}
      </Note>
    );
  }
  if (isError) return <Note tone="danger">{t('dashboard.marketStatus.failed')}</Note>;
  const exchanges = Object.entries(status?.exchanges ?? {});
  if (exchanges.length === 0) return <Note>{t('dashboard.marketStatus.empty')}</Note>;

  const cell = { padding: '4px 8px', borderBottom: `1px solid ${token.colorBorderSecondary}` };
  return (
    <Flex wrap gap={24}>
      {exchanges.map(([exchange, info]) => {
        const timeframes = timeframesOf(info.symbols);
        return (
          <div key={exchange} style={{ flex: '1 1 320px', minWidth: 0, overflowX: 'auto' }}>
            <Flex align="center" gap={8} style={{ marginBottom: 8 }}>
              <Text strong>{exchange.toUpperCase()}</Text>
              <Pill color={info.source === 'live' ? 'success' : 'secondary'}>
                {t(`dashboard.source.${info.source}`)}
              </Pill>
            </Flex>
            <table
              data-testid={`market-status-${exchange}`}
              style={{ borderCollapse: 'collapse', width: '100%', fontSize: 12 }}
            >
              <thead>
                <tr>
                  <th style={{ ...cell, textAlign: 'start' }}>
                    {t('dashboard.marketStatus.symbol')}
                  </th>
                  {timeframes.map((tf) => (
                    <th key={tf} style={{ ...cell, textAlign: 'center' }}>
                      {tf}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Object.entries(info.symbols).map(([symbol, entry]) => (
                  <tr key={symbol}>
                    <td style={{ ...cell, whiteSpace: 'nowrap' }}>{symbol}</td>
                    {timeframes.map((tf) => {
                      const state = entry.timeframes[tf];
                      if (!state) return <td key={tf} style={cell} />;
                      const label = state.is_fresh
                        ? t('dashboard.marketStatus.fresh')
                        : t('dashboard.marketStatus.stale');
                      const delay = t('dashboard.marketStatus.delay', {
                        delay: Math.round(state.delay_seconds),
                      });
                      return (
                        <td
                          key={tf}
                          style={{ ...cell, textAlign: 'center' }}
                          title={`${label} · ${delay}`}
                          data-fresh={state.is_fresh}
                        >
                          <Dot tone={state.is_fresh ? 'success' : 'danger'} label={label} />
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </Flex>
  );
}
