import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { WEBHOOK_EXAMPLE_ALERT_TEXT } from '@quantsquare/contracts';
import { App, Button, Card, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../shared/ui/use-copy';

/** The example alert, one field to a line, as it goes into TradingView's message box. */
export function prettyAlertText(text: string): string {
  return text
    .trim()
    .replace(/^\{\s*/, '{\n  ')
    .replace(/,\s*"/g, ',\n  "')
    .replace(/\s*\}$/, '\n}');
}

const FIELDS = ['action', 'symbol', 'amount', 'price', 'id', 'timestamp'] as const;

/** Documents the alert format with a copyable example (issue 13 "The receiver"). */
export function AlertFormatCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const { copied, copy } = useCopy();
  const example = prettyAlertText(WEBHOOK_EXAMPLE_ALERT_TEXT);
  return (
    <Card
      title={t('webhooks.example.title')}
      data-testid="webhook-example"
      extra={
        <Button
          size="small"
          icon={copied ? <CheckOutlined /> : <CopyOutlined />}
          onClick={async () => {
            if (await copy(example)) void message.success(t('webhooks.example.copied'));
            else void message.error(t('webhooks.url.copyFailed'));
          }}
          data-testid="webhook-example-copy"
        >
          {t('webhooks.example.copy')}
        </Button>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          {t('webhooks.example.subtitle', { example: '{{close}}' })}
        </Typography.Text>
        <pre
          data-testid="webhook-example-text"
          style={{
            margin: 0,
            padding: 12,
            background: token.colorFillQuaternary,
            borderRadius: token.borderRadius,
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {example}
        </pre>
        <dl style={{ margin: 0 }}>
          {FIELDS.map((field) => (
            <div key={field} style={{ marginBottom: 6 }}>
              <dt style={{ display: 'inline' }}>
                <Typography.Text code>{field}</Typography.Text>{' '}
              </dt>
              <dd style={{ display: 'inline', margin: 0 }}>
                <Typography.Text type="secondary">
                  {t(`webhooks.example.fields.${field}`)}
                </Typography.Text>
              </dd>
            </div>
          ))}
        </dl>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('webhooks.example.rules')}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
