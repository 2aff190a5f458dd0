import { theme } from 'antd';
import { useId } from 'react';
import { sparklinePath } from './square-format';

interface Props {
  values: readonly number[];
  height: number;
  /** A dashed, dimmer line for an illustrative curve. */
  isIllustrative?: boolean;
}

const VIEW_WIDTH = 200;

/** A card's small equity curve: an SVG line, green when it ends higher, red when lower. */
export function Sparkline({ values, height, isIllustrative = false }: Props) {
  const { token } = theme.useToken();
  const gradientId = useId();
  const first = values[0] ?? 0;
  const last = values[values.length - 1] ?? 0;
  const color = last >= first ? token.colorSuccess : token.colorError;
  const line = sparklinePath(values, VIEW_WIDTH, height);
  if (!line) return <div style={{ height }} />;
  const area = `${line} L${VIEW_WIDTH - 1} ${height} L1 ${height} Z`;
  return (
    <svg
      viewBox={`0 0 ${VIEW_WIDTH} ${height}`}
      preserveAspectRatio="none"
      width="100%"
      height={height}
      aria-hidden="true"
      style={{ display: 'block', opacity: isIllustrative ? 0.55 : 1 }}
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0%" stopColor={color} stopOpacity={0.25} />
          <stop offset="100%" stopColor={color} stopOpacity={0} />
        </linearGradient>
      </defs>
      <path d={area} fill={`url(#${gradientId})`} stroke="none" />
      <path
        d={line}
        fill="none"
        stroke={color}
        strokeWidth={1.5}
        strokeDasharray={isIllustrative ? '4 3' : undefined}
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
