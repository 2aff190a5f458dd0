import '../../i18n/copy-texts';
import {
  COPY_AMOUNT_STEP,
  COPY_FEE_COINS,
  COPY_MAX_LOSS_STEP,
  COPY_MIN_BALANCE_COINS,
  type ExchangeApi,
} from '@quantsquare/contracts';
import {
  Alert,
  Button,
  Collapse,
  Flex,
  Form,
  InputNumber,
  Modal,
  Skeleton,
  Typography,
} from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeApis } from '../../api/accounts';
import { useCreateCopy } from '../../api/copy-trading';
import { useTransactions } from '../../api/wallet';
import { formatCoinAmount } from '../../shared/format/money';
import { CopyAccountField, CopyLateJoinFields, CopyModeField } from './CopyFormFields';
import { CopyProtectionFields } from './CopyProtectionFields';
import { CopySimulationPanel } from './CopySimulationPanel';
import { copyAmountRuleText } from './copy-errors';
import {
  type CopyChecks,
  type CopyForm,
  type CopyTarget,
  copyFormChecks,
  useCopyForm,
  useCopySubmit,
} from './use-copy-form';

export type { CopyTarget } from './use-copy-form';

interface Props {
  target: CopyTarget | null;
  onClose: () => void;
}

/** The copy amount and the max loss, each with its refusal under it. */
function CopyAmountFields({ form, checks }: { form: CopyForm; checks: CopyChecks }) {
  const { t } = useTranslation();
  const { amountProblem, lossProblem } = checks;
  return (
    <Flex gap={12} wrap>
      <Form.Item
        label={t('copy.modal.amount')}
        style={{ flex: '1 1 160px', marginBottom: 12 }}
        validateStatus={amountProblem ? 'error' : undefined}
        help={amountProblem ? copyAmountRuleText(t, amountProblem) : undefined}
      >
        <InputNumber<number>
          step={COPY_AMOUNT_STEP}
          value={form.amount}
          onChange={form.setAmount}
          style={{ width: '100%' }}
          data-testid="copy-amount"
        />
      </Form.Item>
      <Form.Item
        label={t('copy.modal.maxLoss')}
        extra={lossProblem ? undefined : t('copy.modal.maxLossHint')}
        style={{ flex: '1 1 160px', marginBottom: 12 }}
        validateStatus={lossProblem ? 'error' : undefined}
        help={lossProblem ? t('copy.server.maxLossNegative') : undefined}
      >
        <InputNumber<number>
          step={COPY_MAX_LOSS_STEP}
          value={form.maxLoss}
          onChange={form.setMaxLoss}
          style={{ width: '100%' }}
          data-testid="copy-max-loss"
        />
      </Form.Item>
    </Flex>
  );
}

/** The optional protections, folded away unless opened or holding a refused value. */
function CopyProtectionSection({ form, isRefused }: { form: CopyForm; isRefused: boolean }) {
  const { t } = useTranslation();
  return (
    <Collapse
      ghost
      size="small"
      style={{ marginBottom: 12, marginInline: -16 }}
      // Kept open while a value in it is refused, so the refusal is never hidden.
      activeKey={form.protectionOpen || isRefused ? ['protection'] : []}
      onChange={(keys) => form.setProtectionOpen(keys.length > 0)}
      items={[
        {
          key: 'protection',
          label: t('copy.modal.protection'),
          forceRender: true,
          children: (
            <CopyProtectionFields
              value={form.protection}
              onChange={form.setProtection}
              mode={form.mode}
            />
          ),
        },
      ]}
      data-testid="copy-protection"
    />
  );
}

/** The coin balance, a too-low balance with the way to deposit, and a refused copy. */
function CopyBalanceLines({
  coins,
  isTooLow,
  failure,
  onClose,
}: {
  coins: string | null;
  isTooLow: boolean;
  failure: string | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 4 }}>
        <Typography.Text type="secondary">{t('copy.modal.balance')}</Typography.Text>
        <Typography.Text strong data-testid="copy-balance">
          {t('copy.modal.coins', { amount: formatCoinAmount(coins, i18n.language) })}
        </Typography.Text>
      </Flex>
      {isTooLow && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 8 }}
          title={t('copy.modal.insufficientBalance', { min: COPY_MIN_BALANCE_COINS })}
          action={
            <Link to="/deposit" onClick={onClose}>
              {t('copy.modal.deposit')}
            </Link>
          }
          data-testid="copy-low-balance"
        />
      )}
      {failure && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 8 }}
          title={failure}
          data-testid="copy-error"
        />
      )}
    </>
  );
}

/** In place of the form: loading, a failed load, or no account to copy on. */
function CopyUnavailable({
  isLoading,
  loadFailed,
  onClose,
}: {
  isLoading: boolean;
  loadFailed: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  if (isLoading) return <Skeleton active paragraph={{ rows: 5 }} />;
  if (loadFailed) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('copy.modal.loadFailed')}
        data-testid="copy-load-failed"
      />
    );
  }
  return (
    <Alert
      type="warning"
      showIcon
      title={t('copy.modal.noAccount')}
      action={
        <Link to="/my/api-management" onClick={onClose}>
          {t('copy.modal.addApi')}
        </Link>
      }
      data-testid="copy-no-account"
    />
  );
}

interface CopyFormBodyProps {
  target: CopyTarget | null;
  accounts: readonly ExchangeApi[];
  form: CopyForm;
  checks: CopyChecks;
  coins: string | null;
  onSubmit: () => void;
  onClose: () => void;
}

/** The form: account, amounts, mode, simulation, late join, protections, fee and balance. */
function CopyFormBody({
  target,
  accounts,
  form,
  checks,
  coins,
  onSubmit,
  onClose,
}: CopyFormBodyProps) {
  const { t } = useTranslation();
  return (
    <Form layout="vertical" requiredMark={false} onFinish={onSubmit} component="div">
      <CopyAccountField
        accounts={accounts}
        targetExchange={target?.exchange ?? null}
        value={form.accountId}
        onChange={form.setAccountId}
      />
      {checks.isCross && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('copy.modal.crossExchangeWarning')}
          data-testid="copy-cross-warning"
        />
      )}
      <CopyAmountFields form={form} checks={checks} />
      <CopyModeField value={form.mode} onChange={form.setMode} />
      <CopySimulationPanel
        params={checks.simulation}
        days={form.simulationDays}
        onDaysChange={form.setSimulationDays}
      />
      <CopyLateJoinFields
        isOn={form.lateJoin}
        onToggle={form.setLateJoin}
        distance={form.distance}
        onDistance={form.setDistance}
        hasDistanceProblem={checks.distanceProblem !== null}
      />
      <CopyProtectionSection form={form} isRefused={checks.protectionRefused} />
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={t('copy.modal.explanation', { fee: COPY_FEE_COINS })}
      />
      <CopyBalanceLines
        coins={coins}
        isTooLow={checks.balanceTooLow}
        failure={form.failure}
        onClose={onClose}
      />
    </Form>
  );
}

/**
 * The copy-trading modal (document 2 §1, §5, §8, §9): the user's active accounts (another
 * exchange marked cross-exchange with a warning), copy amount, max loss, copy mode, the late-join
 * option, the optional protections (entry slippage cap, leader-drift limit), the fee and the
 * coin balance. Success goes to /my/copy-trading.
 */
export function CopyModal({ target, onClose }: Props) {
  const { t } = useTranslation();
  const open = target !== null;
  const apis = useExchangeApis();
  const balance = useTransactions({ page: 1, page_size: 1 });
  const create = useCreateCopy();
  const accounts = useMemo(
    () => (apis.data?.results ?? []).filter((a) => a.is_active && (!target || a.id !== target.id)),
    [apis.data, target],
  );
  const form = useCopyForm(target, accounts);

  const coins = balance.data?.balance ?? null;
  const isLoading = apis.isPending || balance.isPending;
  const loadFailed = apis.isError || balance.isError;
  const checks = copyFormChecks(form, target, accounts, coins);
  const canSubmit =
    !isLoading &&
    !loadFailed &&
    checks.chosen !== null &&
    checks.amountProblem === null &&
    checks.distanceProblem === null &&
    !checks.protectionRefused &&
    !checks.lossProblem &&
    !checks.balanceTooLow &&
    coins !== null &&
    !create.isPending;
  const submit = useCopySubmit(target, form, checks.chosen, canSubmit, create, onClose);

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('copy.modal.title', { name: target?.name ?? '' })}
      destroyOnHidden
      width={520}
      footer={
        <Flex justify="flex-end" gap={8} wrap>
          <Button onClick={onClose} autoInsertSpace={false}>
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            onClick={submit}
            disabled={!canSubmit}
            loading={create.isPending}
            autoInsertSpace={false}
            data-testid="copy-submit"
          >
            {t('copy.modal.submit', { fee: COPY_FEE_COINS })}
          </Button>
        </Flex>
      }
      modalRender={(node) => <div data-testid="copy-modal">{node}</div>}
    >
      {isLoading || loadFailed || accounts.length === 0 ? (
        <CopyUnavailable isLoading={isLoading} loadFailed={loadFailed} onClose={onClose} />
      ) : (
        <CopyFormBody
          target={target}
          accounts={accounts}
          form={form}
          checks={checks}
          coins={coins}
          onSubmit={submit}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}
