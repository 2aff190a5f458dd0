import { COPY_EDIT_AMOUNT_STEP, type CopyRelation } from '@quantsquare/contracts';
import { Alert, App, Button, Flex, Form, InputNumber, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdateCopy } from '../../api/copy-trading';
import { copyStrategyName } from './CopyNames';
import { CopyBadges, Figure, PnlText } from './CopyParts';
import {
  type CopyProtection,
  CopyProtectionFields,
  isProtectionRefused,
} from './CopyProtectionFields';
import { copyAmountRuleText } from './copy-errors';
import { copyAmountProblem, toNumber } from './copy-format';

/** The leader copied: its name, venue and badges. */
function LeaderLine({ relation }: { relation: CopyRelation }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('copy.edit.leader')} style={{ marginBottom: 12 }}>
      <Flex gap={6} align="center" wrap>
        <Typography.Text strong>{copyStrategyName(relation, t)}</Typography.Text>
        <Typography.Text type="secondary">{relation.leader_exchange.toUpperCase()}</Typography.Text>
        <CopyBadges relation={relation} />
      </Flex>
    </Form.Item>
  );
}

/** What the copy has made so far, and how many trades it copied. */
function CopyProgress({ relation }: { relation: CopyRelation }) {
  const { t } = useTranslation();
  return (
    <Flex gap={24} wrap>
      <Figure label={t('copy.edit.currentProfit')}>
        <span data-testid="copy-edit-profit">
          <PnlText value={relation.total_profit_loss} /> USDT
        </span>
      </Figure>
      <Figure label={t('copy.edit.copiedTrades')}>
        <span data-testid="copy-edit-trades">{relation.total_copied_trades}</span>
      </Figure>
    </Flex>
  );
}

/** The edit's values (from the relation when it opens), their checks and the save. */
function useEditCopy(relation: CopyRelation | null, onClose: () => void) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const update = useUpdateCopy();
  const [amount, setAmount] = useState<number | null>(null);
  const [maxLoss, setMaxLoss] = useState<number | null>(null);
  const [protection, setProtection] = useState<CopyProtection>({ slippage: null, drift: null });
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!relation) return;
    setAmount(toNumber(relation.copy_amount));
    const loss = toNumber(relation.max_loss);
    setMaxLoss(loss === null || loss === 0 ? null : loss);
    setProtection({
      slippage: relation.max_slippage_percent,
      drift: relation.leader_drawdown_limit_percent,
    });
    setFailure(null);
  }, [relation]);

  const amountProblem = copyAmountProblem(amount);
  const lossProblem = maxLoss !== null && (!Number.isFinite(maxLoss) || maxLoss < 0);
  const canSave =
    relation !== null &&
    !amountProblem &&
    !lossProblem &&
    !isProtectionRefused(protection) &&
    !update.isPending;

  const save = () => {
    if (!relation || amount === null || !canSave) return;
    setFailure(null);
    update.mutate(
      {
        id: relation.id,
        body: {
          copy_amount: String(amount),
          max_loss: maxLoss === null || maxLoss === 0 ? null : String(maxLoss),
          max_slippage_percent: protection.slippage,
          leader_drawdown_limit_percent: protection.drift,
        },
      },
      {
        onSuccess: () => {
          void message.success(t('copy.edit.saved'));
          onClose();
        },
        // Document 2 §8: one text for every failure.
        onError: () => setFailure(t('copy.edit.failed')),
      },
    );
  };

  return {
    update,
    amount,
    setAmount,
    maxLoss,
    setMaxLoss,
    protection,
    setProtection,
    failure,
    amountProblem,
    lossProblem,
    canSave,
    save,
  };
}

/**
 * Edit copy settings (document 2 §4, §5): the leader, the copy amount (at least 10 USDT, step
 * 0.01), the max loss (empty: no limit) and the protections (entry slippage cap, leader-drift
 * limit), with the current profit and copied-trade count.
 */
export function EditCopyModal({
  relation,
  onClose,
}: {
  relation: CopyRelation | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const {
    update,
    amount,
    setAmount,
    maxLoss,
    setMaxLoss,
    protection,
    setProtection,
    failure,
    amountProblem,
    lossProblem,
    canSave,
    save,
  } = useEditCopy(relation, onClose);

  return (
    <Modal
      open={relation !== null}
      onCancel={onClose}
      title={t('copy.edit.title')}
      destroyOnHidden
      width={460}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose} autoInsertSpace={false}>
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            onClick={save}
            disabled={!canSave}
            loading={update.isPending}
            autoInsertSpace={false}
            data-testid="copy-edit-save"
          >
            {t('copy.edit.save')}
          </Button>
        </Flex>
      }
      modalRender={(node) => <div data-testid="copy-edit-modal">{node}</div>}
    >
      {relation && (
        <Form layout="vertical" component="div">
          <LeaderLine relation={relation} />
          <Form.Item
            label={t('copy.edit.amount')}
            style={{ marginBottom: 12 }}
            validateStatus={amountProblem ? 'error' : undefined}
            help={amountProblem ? copyAmountRuleText(t, amountProblem) : undefined}
          >
            <InputNumber<number>
              step={COPY_EDIT_AMOUNT_STEP}
              value={amount}
              onChange={setAmount}
              style={{ width: '100%' }}
              data-testid="copy-edit-amount"
            />
          </Form.Item>
          <Form.Item
            label={t('copy.edit.maxLoss')}
            extra={t('copy.edit.maxLossHint')}
            style={{ marginBottom: 12 }}
            validateStatus={lossProblem ? 'error' : undefined}
            help={lossProblem ? t('copy.server.maxLossNegative') : undefined}
          >
            <InputNumber<number>
              step={COPY_EDIT_AMOUNT_STEP}
              value={maxLoss}
              onChange={setMaxLoss}
              placeholder={t('copy.page.noLimit')}
              style={{ width: '100%' }}
              data-testid="copy-edit-max-loss"
            />
          </Form.Item>
          <CopyProtectionFields
            value={protection}
            onChange={setProtection}
            mode={relation.copy_mode}
          />
          <CopyProgress relation={relation} />
          {failure && (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 12 }}
              title={failure}
              data-testid="copy-edit-error"
            />
          )}
        </Form>
      )}
    </Modal>
  );
}
