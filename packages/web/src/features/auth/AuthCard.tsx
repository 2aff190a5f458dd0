import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  subtitle: string;
  children: ReactNode;
}

/** The centred card of the login and register screens. */
export function AuthCard({ title, subtitle, children }: AuthCardProps) {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '8px 0 24px' }}>
      <Card
        style={{ width: '100%', maxWidth: 440 }}
        styles={{ body: { padding: '24px 24px 16px' } }}
      >
        <Typography.Title level={3} style={{ marginTop: 0, marginBottom: 4, textAlign: 'center' }}>
          {title}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          {subtitle}
        </Typography.Paragraph>
        {children}
      </Card>
    </div>
  );
}
