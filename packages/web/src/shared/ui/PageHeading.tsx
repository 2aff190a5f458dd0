import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A wallet screen's title, one line saying what it is for, and its actions. */
export function PageHeading({
  title,
  subtitle,
  extra,
}: {
  title: string;
  subtitle?: string;
  extra?: ReactNode;
}) {
  return (
    <Flex justify="space-between" align="flex-end" gap={12} wrap>
      <div style={{ minWidth: 0 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {subtitle && (
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
            {subtitle}
          </Typography.Text>
        )}
      </div>
      {extra}
    </Flex>
  );
}

/** Two columns on a wide screen, one on a narrow one. */
export function TwoColumns({ children }: { children: ReactNode }) {
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 400px), 1fr))',
        gap: 16,
        alignItems: 'start',
      }}
    >
      {children}
    </div>
  );
}

/** A card's list of rules, in small secondary text. */
export function RuleList({ rules }: { rules: readonly string[] }) {
  return (
    <ul style={{ margin: 0, paddingInlineStart: 18 }}>
      {rules.map((rule) => (
        <li key={rule} style={{ marginBottom: 6 }}>
          <Typography.Text type="secondary">{rule}</Typography.Text>
        </li>
      ))}
    </ul>
  );
}
