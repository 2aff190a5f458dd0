import type { ExchangeApi, ValidateResponse } from '@quantsquare/contracts';
import { Alert, Button, Descriptions, Modal, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountName } from '../../shared/format/account-format';
import { ExchangeErrorText, useExchangeErrorKindText } from './ExchangeErrorText';

/** What to warn about a working key, from its permissions (in the reader's language). */
function permissionWarnings(result: ValidateResponse): ('withdrawWarning' | 'noIpWarning')[] {
  const warnings: ('withdrawWarning' | 'noIpWarning')[] = [];
  if (result.permissions.can_withdraw === true) warnings.push('withdrawWarning');
  if (result.permissions.ip_restricted === false) warnings.push('noIpWarning');
  return warnings;
}

interface Props {
  api: ExchangeApi | null;
  result: ValidateResponse | null;
  onClose: () => void;
}

/** The key's permissions as the exchange reports them, with the server's warnings. */
export function ApiValidateModal({ api, result, onClose }: Props) {
  const { t } = useTranslation();
  const kindText = useExchangeErrorKindText();
  const warnings = result?.success ? permissionWarnings(result) : [];
  const flag = (value: boolean | null, isGoodWhen: boolean) =>
    value === null ? (
      <Tag>{t('apis.validate.unknown')}</Tag>
    ) : (
      <Tag color={value === isGoodWhen ? 'success' : 'warning'}>
        {value ? t('apis.yes') : t('apis.no')}
      </Tag>
    );
  return (
    <Modal
      open={api !== null && result !== null}
      title={
        api ? t('apis.validate.title', { name: accountName(api, t('apis.experienceName')) }) : ''
      }
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('apis.validate.close')}</Button>}
      destroyOnHidden
    >
      {result && (
        <Space
          orientation="vertical"
          size="middle"
          style={{ width: '100%' }}
          data-testid="api-validate-result"
        >
          <Alert
            type={result.success ? 'success' : 'error'}
            showIcon
            data-testid="api-validate-status"
            title={
              result.success
                ? t('apis.validate.valid')
                : t('apis.messages.validateFailed', { message: kindText(result.error_kind) })
            }
            description={
              result.success ? undefined : (
                <ExchangeErrorText kind={result.error_kind} detail={result.message} detailsOnly />
              )
            }
          />
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('apis.validate.canTrade')}>
              {flag(result.permissions.can_trade, true)}
            </Descriptions.Item>
            <Descriptions.Item label={t('apis.validate.canWithdraw')}>
              {flag(result.permissions.can_withdraw, false)}
            </Descriptions.Item>
            <Descriptions.Item label={t('apis.validate.ipRestricted')}>
              {flag(result.permissions.ip_restricted, true)}
            </Descriptions.Item>
          </Descriptions>
          {warnings.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={t('apis.validate.warnings')}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {warnings.map((warning) => (
                    <li key={warning}>{t(`apis.validate.${warning}`)}</li>
                  ))}
                </ul>
              }
            />
          )}
        </Space>
      )}
    </Modal>
  );
}
