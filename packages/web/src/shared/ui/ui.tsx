import { theme } from 'antd';
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

// Light building blocks for the dashboard. antd's Card, Typography, Empty, Alert and Badge each
// bring far more code than these few styles, and /dashboard has a 300 KB gzip budget.

export type Tone = 'default' | 'secondary' | 'success' | 'warning' | 'danger';

function useToneColor(tone: Tone): string | undefined {
  const { token } = theme.useToken();
  switch (tone) {
    case 'secondary':
      return token.colorTextSecondary;
    case 'success':
      return token.colorSuccess;
    case 'warning':
      return token.colorWarning;
    case 'danger':
      return token.colorError;
    default:
      return undefined;
  }
}

type TextProps = HTMLAttributes<HTMLSpanElement> & {
  tone?: Tone;
  strong?: boolean;
  size?: number;
  'data-testid'?: string;
  [dataAttribute: `data-${string}`]: string | number | boolean | undefined;
};

export function Text({ tone = 'default', strong, size, style, ...rest }: TextProps) {
  const color = useToneColor(tone);
  return (
    <span
      {...rest}
      style={{ color, fontWeight: strong ? 600 : undefined, fontSize: size, ...style }}
    />
  );
}

interface PanelProps {
  title?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  bodyPadding?: number;
  style?: CSSProperties;
  'data-testid'?: string;
}

/** A bordered section with an optional header line, in the look of antd's small Card. */
export function Panel({ title, extra, children, bodyPadding = 12, style, ...rest }: PanelProps) {
  const { token } = theme.useToken();
  return (
    <section
      data-testid={rest['data-testid']}
      style={{
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        minWidth: 0,
        ...style,
      }}
    >
      {(title || extra) && (
        <header
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 8,
            padding: '8px 12px',
            minHeight: 38,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <h2 style={{ margin: 0, fontSize: 14, fontWeight: 600, color: token.colorText }}>
            {title}
          </h2>
          {extra}
        </header>
      )}
      <div style={{ padding: bodyPadding }}>{children}</div>
    </section>
  );
}

/** A centred one-line note: empty data, a failure, a loading text. */
export function Note({
  tone = 'secondary',
  children,
  testId,
  minHeight = 80,
}: {
  tone?: Tone;
  children: ReactNode;
  testId?: string;
  minHeight?: number;
}) {
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        minHeight,
        padding: 8,
      }}
    >
      <Text tone={tone} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

/** A small status dot (fresh/stale). */
export function Dot({ tone, label }: { tone: 'success' | 'danger'; label: string }) {
  const color = useToneColor(tone);
  return (
    <span
      role="img"
      aria-label={label}
      style={{
        display: 'inline-block',
        width: 8,
        height: 8,
        borderRadius: '50%',
        background: color,
        verticalAlign: 'middle',
      }}
    />
  );
}

/** The preset colours of antd's Tag a Pill takes by name, each the theme's shade 6 of it. */
export type PresetColor = 'blue' | 'purple' | 'green' | 'red';
const PRESETS: ReadonlySet<string> = new Set<PresetColor>(['blue', 'purple', 'green', 'red']);

type PillProps = HTMLAttributes<HTMLSpanElement> & {
  /** A tone of the theme, a preset colour (as antd's Tag names them), or any CSS colour. */
  color: Tone | PresetColor | (string & {});
  [dataAttribute: `data-${string}`]: string | number | boolean | undefined;
};

/** A small coloured label (source, legend entries, statuses and types in the look of a Tag). */
export function Pill({ color, style, ...rest }: PillProps) {
  const { token } = theme.useToken();
  const toneColor = useToneColor(color as Tone);
  const isTone = ['default', 'secondary', 'success', 'warning', 'danger'].includes(color);
  const base = isTone
    ? (toneColor ?? token.colorTextSecondary)
    : PRESETS.has(color)
      ? token[`${color as PresetColor}6`]
      : color;
  return (
    <span
      {...rest}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 4,
        padding: '0 7px',
        fontSize: 12,
        lineHeight: '20px',
        whiteSpace: 'nowrap',
        borderRadius: token.borderRadiusSM,
        color: base,
        border: `1px solid ${base}`,
        background: token.colorFillQuaternary,
        ...style,
      }}
    />
  );
}
