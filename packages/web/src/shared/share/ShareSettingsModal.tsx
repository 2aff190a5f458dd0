import {
  COPY_FEE_COINS,
  type ShareSettings,
  type ShareSettingsUpdateRequest,
  STRATEGY_NAME_MAX_LENGTH,
} from '@quantsquare/contracts';
import {
  App,
  type ButtonProps,
  Descriptions,
  Flex,
  Form,
  Input,
  Modal,
  Skeleton,
  Switch,
  Typography,
} from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShareSettings, useUpdateShareSettings } from '../../api/square';
import { squareErrorText } from '../errors/square-errors';
import { QueryErrorAlert } from '../ui/QueryState';

export interface ShareFlags {
  name: string;
  is_public: boolean;
  accept_copy: boolean;
  show_trades: boolean;
  show_positions: boolean;
  allow_comments: boolean;
  show_rules: boolean;
}

/**
 * The four visibility flags go back to true whenever an account stops being public (document 1
 * §4); the strategies' rules go back to private.
 */
export const PRIVATE_RESET = {
  accept_copy: true,
  show_trades: true,
  show_positions: true,
  allow_comments: true,
  show_rules: false,
} as const;

/** What saving the form sends: a private account always carries the reset flags. */
export function shareUpdateBody(values: ShareFlags): ShareSettingsUpdateRequest {
  return values.is_public
    ? { ...values, name: values.name.trim() }
    : { ...values, name: values.name.trim(), is_public: false, ...PRIVATE_RESET };
}

/** The public switch and the visibility switches, as a form section (also used on /my/strategies/create). */
export function ShareFlagFields({ isPublicShown = true }: { isPublicShown?: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<ShareFlags>();
  const isPublic = Form.useWatch('is_public', form) ?? true;
  const flag = (name: keyof typeof PRIVATE_RESET, label: string, hint?: string) => (
    <Form.Item name={name} valuePropName="checked" style={{ marginBottom: 8 }}>
      <SwitchRow label={label} hint={hint} disabled={!isPublic} testId={`share-${name}`} />
    </Form.Item>
  );
  return (
    <>
      {isPublicShown && (
        <Form.Item name="is_public" valuePropName="checked" style={{ marginBottom: 8 }}>
          <SwitchRow
            label={t('share.modal.isPublic')}
            hint={t('share.modal.isPublicHint')}
            testId="share-is_public"
            onTurnOff={() => form.setFieldsValue(PRIVATE_RESET)}
          />
        </Form.Item>
      )}
      {flag(
        'accept_copy',
        t('share.modal.acceptCopy'),
        t('share.modal.acceptCopyHint', { fee: COPY_FEE_COINS }),
      )}
      {flag('show_trades', t('share.modal.showTrades'))}
      {flag('show_positions', t('share.modal.showPositions'))}
      {flag('allow_comments', t('share.modal.allowComments'))}
      {flag('show_rules', t('share.modal.showRules'), t('share.modal.showRulesHint'))}
    </>
  );
}

interface SwitchRowProps {
  label: string;
  hint?: string;
  checked?: boolean;
  onChange?: (checked: boolean) => void;
  onTurnOff?: () => void;
  disabled?: boolean;
  testId: string;
}

/** A labelled switch, driven by Form.Item (checked/onChange). */
function SwitchRow({
  label,
  hint,
  checked,
  onChange,
  onTurnOff,
  disabled,
  testId,
}: SwitchRowProps) {
  return (
    <Flex justify="space-between" align="center" gap={12}>
      <div style={{ minWidth: 0 }}>
        <Typography.Text disabled={disabled}>{label}</Typography.Text>
        {hint && (
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {hint}
          </Typography.Text>
        )}
      </div>
      <Switch
        checked={checked}
        disabled={disabled}
        onChange={(next) => {
          onChange?.(next);
          if (!next) onTurnOff?.();
        }}
        aria-label={label}
        data-testid={testId}
      />
    </Flex>
  );
}

interface Props {
  accountId: number | null;
  onClose: () => void;
}

function initialValues(settings: ShareSettings): ShareFlags {
  return {
    name: settings.name,
    is_public: settings.is_public,
    accept_copy: settings.accept_copy,
    show_trades: settings.show_trades,
    show_positions: settings.show_positions,
    allow_comments: settings.allow_comments,
    show_rules: settings.show_rules,
  };
}

/** The share settings dialog of an account (document 1 §2, §8: 'Failed to save settings'). */
export function ShareSettingsModal({ accountId, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ShareFlags>();
  const settings = useShareSettings(accountId);
  const update = useUpdateShareSettings();
  const data = settings.data;

  useEffect(() => {
    if (data) form.setFieldsValue(initialValues(data));
  }, [data, form]);

  const save = async () => {
    if (accountId === null) return;
    const values = await form.validateFields();
    update.mutate(
      { accountId, body: shareUpdateBody(values) },
      {
        onSuccess: () => {
          void message.success(t('share.modal.saved'));
          onClose();
        },
        onError: (error) => {
          const detail = squareErrorText(t, error, '');
          void message.error(
            detail ? `${t('share.modal.saveFailed')}: ${detail}` : t('share.modal.saveFailed'),
          );
        },
      },
    );
  };

  const saveButton: ButtonProps & { 'data-testid': string } = {
    disabled: !data,
    loading: update.isPending,
    'data-testid': 'share-save',
  };

  return (
    <Modal
      open={accountId !== null}
      title={t('share.modal.title')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('share.modal.save')}
      okButtonProps={saveButton}
      destroyOnHidden
      data-testid="share-modal"
    >
      {settings.isError ? (
        <QueryErrorAlert
          query={settings}
          failedText={t('share.modal.loadFailed')}
          describe={squareErrorText}
          hideRetry
        />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <Form form={form} layout="vertical" initialValues={initialValues(data)}>
          <Form.Item
            name="name"
            label={t('publish.name')}
            rules={[{ required: true, whitespace: true, message: t('publish.nameRequired') }]}
          >
            <Input maxLength={STRATEGY_NAME_MAX_LENGTH} data-testid="share-name" />
          </Form.Item>
          <ShareFlagFields />
          <Descriptions
            size="small"
            column={1}
            style={{ marginTop: 8 }}
            items={[
              { key: 'copiers', label: t('share.modal.copiers'), children: data.copiers_count },
              {
                key: 'earnings',
                label: t('share.modal.earnings'),
                children: data.total_copy_earnings,
              },
            ]}
          />
          {data.updated_at && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('share.modal.updatedAt', {
                time: new Date(data.updated_at).toLocaleString(i18n.language),
              })}
            </Typography.Text>
          )}
        </Form>
      )}
    </Modal>
  );
}
