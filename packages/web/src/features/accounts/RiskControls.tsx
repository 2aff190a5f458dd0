import { PauseCircleOutlined, PlayCircleOutlined, SafetyOutlined } from '@ant-design/icons';
import type { RiskSettings, RiskSettingsRequest } from '@quantsquare/contracts';
import {
  App as AntApp,
  Button,
  Divider,
  Flex,
  Form,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAccountRisk,
  useHaltAccount,
  useResumeAccount,
  useUpdateRisk,
} from '../../api/accounts';
import { errorMessage } from '../../api/errors';
import { fieldErrors } from '../../api/field-errors';
import { formatUtc8 } from '../../shared/format/bot-format';
import { formatMoneyLimit } from '../../shared/format/money';

const STATE_COLORS = { active: 'success', reducing: 'warning', halted: 'error' } as const;

type FormValues = {
  [K in keyof RiskSettingsRequest]: RiskSettingsRequest[K] | undefined;
};

const valuesOf = (risk: RiskSettings): FormValues => ({
  max_order_notional: risk.max_order_notional === null ? null : Number(risk.max_order_notional),
  max_open_notional: risk.max_open_notional === null ? null : Number(risk.max_open_notional),
  daily_loss_limit_pct: risk.daily_loss_limit_pct,
  trailing_drawdown_pct: risk.trailing_drawdown_pct,
  on_breach: risk.on_breach,
});

/** The limits form of one account: empty fields are "no limit"; errors said from their codes. */
function RiskSettingsModal({
  risk,
  accountName,
  onClose,
}: {
  risk: RiskSettings;
  accountName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<FormValues>();
  const update = useUpdateRisk();

  const submit = (values: FormValues) => {
    const body: RiskSettingsRequest = {
      max_order_notional: values.max_order_notional ?? null,
      max_open_notional: values.max_open_notional ?? null,
      daily_loss_limit_pct: values.daily_loss_limit_pct ?? null,
      trailing_drawdown_pct: values.trailing_drawdown_pct ?? null,
      on_breach: values.on_breach ?? 'halt',
    };
    update.mutate(
      { id: risk.account_id, body },
      {
        onSuccess: () => {
          void message.success(t('risk.saved'));
          onClose();
        },
        onError: (error) => {
          const fields = fieldErrors(t, error);
          form.setFields(
            Object.entries(fields).map(([name, text]) => ({
              name: name as keyof FormValues,
              errors: [text],
            })),
          );
          if (Object.keys(fields).length === 0) {
            void message.error(
              t('risk.failed', { error: errorMessage(t, error, t('errors.generic')) }),
            );
          }
        },
      },
    );
  };

  const number = (name: keyof FormValues, label: string, min: number, max?: number) => (
    <Form.Item name={name} label={label} extra={t('risk.fields.emptyHint')}>
      <InputNumber
        min={min}
        {...(max === undefined ? {} : { max })}
        style={{ width: '100%' }}
        data-testid={`risk-${name}`}
      />
    </Form.Item>
  );

  return (
    <Modal
      open
      title={t('risk.settingsTitle', { name: accountName })}
      okText={t('risk.save')}
      cancelText={t('risk.cancel')}
      confirmLoading={update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'risk-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={valuesOf(risk)} onFinish={submit}>
        {number('max_order_notional', t('risk.fields.maxOrderNotional'), 0)}
        {number('max_open_notional', t('risk.fields.maxOpenNotional'), 0)}
        {number('daily_loss_limit_pct', t('risk.fields.dailyLossLimitPct'), 0, 100)}
        {number('trailing_drawdown_pct', t('risk.fields.trailingDrawdownPct'), 0, 100)}
        <Form.Item name="on_breach" label={t('risk.fields.onBreach')}>
          <Select
            data-testid="risk-on_breach"
            options={(['halt', 'close_all'] as const).map((value) => ({
              value,
              label: t(`risk.onBreach.${value}`),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The risk gate of one account on the overview: its state and why, its limits, the kill switch
 * (asked once more before halting) and resume, and the limits form.
 */
export function RiskControls({
  accountId,
  accountName,
}: {
  accountId: number;
  accountName: string;
}) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const risk = useAccountRisk(accountId);
  const halt = useHaltAccount();
  const resume = useResumeAccount();
  const [isEditing, setEditing] = useState(false);
  const data = risk.data;
  const amount = (value: string | null) =>
    value === null ? t('risk.noLimit') : `${formatMoneyLimit(Number(value), i18n.language)} USDT`;
  const pct = (value: number | null) => (value === null ? t('risk.noLimit') : `${value}%`);
  const failed = (error: unknown) =>
    void message.error(t('risk.failed', { error: errorMessage(t, error, t('errors.generic')) }));

  return (
    <div data-testid="risk-controls">
      <Divider style={{ margin: '4px 0 12px' }} />
      {risk.isError && <Typography.Text type="danger">{t('risk.loadFailed')}</Typography.Text>}
      {data && (
        <Flex vertical gap={8}>
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Flex align="center" gap={6} wrap style={{ minWidth: 0 }}>
              <SafetyOutlined />
              <Typography.Text>{t('risk.title')}</Typography.Text>
              <Tag
                color={STATE_COLORS[data.state]}
                data-testid="risk-state"
                data-state={data.state}
              >
                {t(`risk.states.${data.state}`)}
              </Tag>
              {data.state_reason && (
                <Typography.Text type="secondary" data-testid="risk-reason">
                  {t(`risk.reasons.${data.state_reason}`)}
                  {data.since ? ` · ${t('risk.since', { time: formatUtc8(data.since) })}` : ''}
                </Typography.Text>
              )}
            </Flex>
            <Flex gap={4} wrap>
              <Button
                size="small"
                onClick={() => setEditing(true)}
                data-testid="risk-settings-open"
              >
                {t('risk.settings')}
              </Button>
              {data.state === 'active' ? (
                <Popconfirm
                  title={t('risk.haltTitle')}
                  description={<div style={{ maxWidth: 280 }}>{t('risk.haltConfirm')}</div>}
                  okText={t('risk.haltOk')}
                  cancelText={t('risk.cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'risk-halt-confirm' } as never}
                  onConfirm={() =>
                    halt.mutate(accountId, {
                      onSuccess: () => void message.success(t('risk.halted')),
                      onError: failed,
                    })
                  }
                >
                  <Button
                    size="small"
                    danger
                    icon={<PauseCircleOutlined />}
                    loading={halt.isPending}
                    data-testid="risk-halt"
                  >
                    {t('risk.halt')}
                  </Button>
                </Popconfirm>
              ) : (
                <Button
                  size="small"
                  type="primary"
                  icon={<PlayCircleOutlined />}
                  loading={resume.isPending}
                  onClick={() =>
                    resume.mutate(accountId, {
                      onSuccess: () => void message.success(t('risk.resumed')),
                      onError: failed,
                    })
                  }
                  data-testid="risk-resume"
                >
                  {t('risk.resume')}
                </Button>
              )}
            </Flex>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="risk-limits">
            {t('risk.limitsSummary', {
              order: amount(data.max_order_notional),
              open: amount(data.max_open_notional),
              daily: pct(data.daily_loss_limit_pct),
              drawdown: pct(data.trailing_drawdown_pct),
            })}
          </Typography.Text>
        </Flex>
      )}
      {isEditing && data && (
        <RiskSettingsModal
          risk={data}
          accountName={accountName}
          onClose={() => setEditing(false)}
        />
      )}
    </div>
  );
}
