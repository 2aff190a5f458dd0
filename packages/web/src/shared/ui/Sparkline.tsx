import { theme } from 'antd';
import { useId } from 'react';
import { sparklinePath } from '../format/square-format';

interface Props {
  values: readonly number[];
  height: number;
  /** A dashed, dimmer line for an illustrative curve. */
  isIllustrative?: boolean;
  /**
   * The figure the card shows beside it (its return): the colour follows its sign, so a red
   * "-3.2%" never sits on a green line. Without one, the curve's own end against its start.
   */
  sign?: number | null;
}

const VIEW_WIDTH = 200;

/** A card's small equity curve: an SVG line, green for a gain, red for a loss, grey for none. */
export function Sparkline({ values, height, isIllustrative = false, sign }: Props) {
  const { token } = theme.useToken();
  const gradientId = useId();
  const first = values[0] ?? 0;
  const last = values[values.length - 1] ?? 0;
  const direction =
    typeof sign === 'number' && Number.isFinite(sign) ? Math.sign(sign) : Math.sign(last - first);
  const color =
    direction > 0 ? token.colorSuccess : direction < 0 ? token.colorError : token.colorTextTertiary;
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
      data-testid="sparkline"
      data-tone={direction > 0 ? 'up' : direction < 0 ? 'down' : 'flat'}
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
