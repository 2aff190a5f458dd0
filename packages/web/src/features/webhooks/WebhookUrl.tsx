import { CheckOutlined, CopyOutlined, EyeInvisibleOutlined, SyncOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Input, Modal, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCopy } from '../../shared/ui/use-copy';

/** A copy button for the full URL that says when it worked and when it did not. */
function CopyUrlButton({ url, testId }: { url: string; testId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { copied, copy } = useCopy();
  return (
    <Tooltip title={copied ? t('webhooks.url.copied') : t('webhooks.url.copy')}>
      <Button
        icon={copied ? <CheckOutlined /> : <CopyOutlined />}
        aria-label={t('webhooks.url.copy')}
        data-testid={testId}
        onClick={async () => {
          if (!(await copy(url))) void message.error(t('webhooks.url.copyFailed'));
        }}
      />
    </Tooltip>
  );
}

interface UrlProps {
  /** The URL as the list answers it (masked after creation). */
  maskedUrl: string;
  /** The full URL when this page received it (created or regenerated here). */
  fullUrl: string | undefined;
  onRegenerate: () => void;
  regenerating: boolean;
}

/**
 * A configuration's receiver URL: in full with a copy button while this page holds it, else
 * masked with a note that the full URL is only shown once; and the regenerate button.
 */
export function WebhookUrl({ maskedUrl, fullUrl, onRegenerate, regenerating }: UrlProps) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={4} style={{ minWidth: 0 }}>
      <Flex gap={6} align="center" style={{ minWidth: 0 }}>
        {!fullUrl && (
          <Tooltip title={t('webhooks.url.masked')}>
            <EyeInvisibleOutlined
              aria-label={t('webhooks.url.maskedShort')}
              data-testid="webhook-url-masked-icon"
            />
          </Tooltip>
        )}
        <Typography.Text
          code
          style={{ minWidth: 0, overflowWrap: 'anywhere', fontSize: 12 }}
          data-testid={fullUrl ? 'webhook-url-full' : 'webhook-url-masked'}
        >
          {fullUrl ?? maskedUrl}
        </Typography.Text>
      </Flex>
      <Space size={4} wrap>
        {fullUrl && <CopyUrlButton url={fullUrl} testId="webhook-url-copy" />}
        <Button
          size="small"
          icon={<SyncOutlined />}
          loading={regenerating}
          onClick={onRegenerate}
          data-testid="webhook-url-regenerate"
        >
          {t('webhooks.url.regenerate')}
        </Button>
      </Space>
      {!fullUrl && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('webhooks.url.masked')}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Shown right after a create or regenerate: the only time the full URL is given. */
export function RevealedUrlModal({ url, onClose }: { url: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={url !== null}
      title={t('webhooks.url.revealedTitle')}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose} data-testid="webhook-revealed-close">
          {t('webhooks.url.close')}
        </Button>
      }
    >
      {url && (
        <Flex vertical gap={12} data-testid="webhook-revealed">
          <Alert type="warning" showIcon title={t('webhooks.url.revealedBody')} />
          <Flex gap={8}>
            <Input
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              data-testid="webhook-revealed-url"
              aria-label={t('webhooks.url.label')}
            />
            <CopyUrlButton url={url} testId="webhook-revealed-copy" />
          </Flex>
          <Typography.Text type="secondary">{t('webhooks.url.tradingViewHint')}</Typography.Text>
          <Typography.Text type="secondary">{t('webhooks.url.revealedHint')}</Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}
