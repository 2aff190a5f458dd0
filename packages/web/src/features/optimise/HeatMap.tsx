import type { OptimisationCombinationResult } from '@quantsquare/contracts';
import { Flex, Select, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { heatMapOf, parameterLabel } from './optimise-grid';

interface Props {
  names: string[];
  results: readonly OptimisationCombinationResult[];
  formatValue: (value: number) => string;
}

/** Red (worst) through amber to green (best), by the value's place between min and max. */
function cellColour(value: number, min: number, max: number): string {
  const share = max > min ? (value - min) / (max - min) : 0.5;
  const hue = Math.round(share * 120);
  return `hsl(${hue} 65% 38%)`;
}

/** The out-of-sample objective over two chosen parameters (best over the others per cell). */
export function HeatMap({ names, results, formatValue }: Props) {
  const { t } = useTranslation();
  const [xName, setXName] = useState(names[0] ?? '');
  const [yName, setYName] = useState(names[1] ?? '');
  useEffect(() => {
    if (!names.includes(xName)) setXName(names[0] ?? '');
    if (!names.includes(yName)) setYName(names[1] ?? '');
  }, [names, xName, yName]);
  const map = useMemo(() => heatMapOf(results, xName, yName), [results, xName, yName]);
  if (names.length < 2) {
    return <Typography.Text type="secondary">{t('optimise.heatNeedsTwo')}</Typography.Text>;
  }
  const options = names.map((name) => ({ value: name, label: parameterLabel(t, name) }));
  return (
    <Flex vertical gap={8} data-testid="optimise-heat-map">
      <Flex gap={8} wrap>
        <Flex align="center" gap={4}>
          <Typography.Text type="secondary">{t('optimise.heatX')}</Typography.Text>
          <Select
            size="small"
            value={xName}
            onChange={setXName}
            options={options.filter((o) => o.value !== yName)}
            style={{ minWidth: 130 }}
            data-testid="optimise-heat-x"
          />
        </Flex>
        <Flex align="center" gap={4}>
          <Typography.Text type="secondary">{t('optimise.heatY')}</Typography.Text>
          <Select
            size="small"
            value={yName}
            onChange={setYName}
            options={options.filter((o) => o.value !== xName)}
            style={{ minWidth: 130 }}
            data-testid="optimise-heat-y"
          />
        </Flex>
      </Flex>
      <div style={{ overflowX: 'auto' }}>
        <table style={{ borderCollapse: 'collapse', fontSize: 12 }}>
          <thead>
            <tr>
              <th style={{ padding: 4, textAlign: 'right' }}>
                {parameterLabel(t, yName)} \ {parameterLabel(t, xName)}
              </th>
              {map.xs.map((x) => (
                <th key={x} style={{ padding: 4, fontWeight: 500 }}>
                  {x}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {map.ys.map((y, row) => (
              <tr key={y}>
                <th style={{ padding: 4, textAlign: 'right', fontWeight: 500 }}>{y}</th>
                {map.xs.map((x, column) => {
                  const value = map.cells[row]?.[column] ?? null;
                  return (
                    <td
                      key={x}
                      title={`${xName}=${x}, ${yName}=${y}`}
                      style={{
                        padding: '4px 6px',
                        minWidth: 44,
                        textAlign: 'center',
                        color: '#fff',
                        background:
                          value === null ? 'transparent' : cellColour(value, map.min, map.max),
                        border: '1px solid rgba(128,128,128,0.25)',
                      }}
                    >
                      {value === null ? '—' : formatValue(value)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('optimise.heatLegend')}
      </Typography.Text>
    </Flex>
  );
}
