import '../../i18n/copy-texts';
import {
  COPY_AMOUNT_DEFAULT,
  COPY_AMOUNT_STEP,
  COPY_ENTRY_DISTANCE_DEFAULT_PERCENT,
  COPY_FEE_COINS,
  COPY_MAX_LOSS_STEP,
  COPY_MIN_BALANCE_COINS,
  COPY_SIMULATION_DAYS_DEFAULT,
  type CopyMode,
  type CopySimulationDays,
  type Exchange,
} from '@quantsquare/contracts';
import {
  Alert,
  App,
  Button,
  Collapse,
  Flex,
  Form,
  InputNumber,
  Modal,
  Skeleton,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useExchangeApis } from '../../api/accounts';
import { useCreateCopy } from '../../api/copy-trading';
import { useTransactions } from '../../api/wallet';
import { compareDecimal } from '../../shared/format/decimal';
import { formatCoinAmount } from '../../shared/format/money';
import { CopyAccountField, CopyLateJoinFields, CopyModeField } from './CopyFormFields';
import {
  type CopyProtection,
  CopyProtectionFields,
  isProtectionRefused,
} from './CopyProtectionFields';
import { CopySimulationPanel } from './CopySimulationPanel';
import { copyAmountRuleText, copyCreateErrorText } from './copy-errors';
import { copyAmountProblem, entryDistanceProblem, maxLossPayload } from './copy-format';

const NO_PROTECTION: CopyProtection = { slippage: null, drift: null };
/** The simulation asks again once the amount has stopped changing this long. */
const SIMULATION_DEBOUNCE_MS = 400;

/** The strategy being copied (a card of the square or the strategy page). */
export interface CopyTarget {
  id: number;
  name: string;
  exchange: Exchange;
}

interface Props {
  target: CopyTarget | null;
  onClose: () => void;
}

/**
 * The copy-trading modal (document 2 §1, §5, §8, §9): the user's active accounts (another
 * exchange marked cross-exchange with a warning), copy amount, max loss, copy mode, the late-join
 * option, the optional protections (entry slippage cap, leader-drift limit), the fee and the
 * coin balance. Success goes to /my/copy-trading.
 */
export function CopyModal({ target, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const open = target !== null;
  const apis = useExchangeApis();
  const balance = useTransactions({ page: 1, page_size: 1 });
  const create = useCreateCopy();
  const [accountId, setAccountId] = useState<number | null>(null);
  const [amount, setAmount] = useState<number | null>(COPY_AMOUNT_DEFAULT);
  const [maxLoss, setMaxLoss] = useState<number | null>(0);
  const [mode, setMode] = useState<CopyMode>('normal');
  const [lateJoin, setLateJoin] = useState(false);
  const [distance, setDistance] = useState<number | null>(COPY_ENTRY_DISTANCE_DEFAULT_PERCENT);
  const [protection, setProtection] = useState<CopyProtection>(NO_PROTECTION);
  const [protectionOpen, setProtectionOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [simulationDays, setSimulationDays] = useState<CopySimulationDays>(
    COPY_SIMULATION_DAYS_DEFAULT,
  );
  const [simulatedAmount, setSimulatedAmount] = useState<number | null>(COPY_AMOUNT_DEFAULT);

  const accounts = useMemo(
    () => (apis.data?.results ?? []).filter((a) => a.is_active && (!target || a.id !== target.id)),
    [apis.data, target],
  );

  // Each opening starts from the defaults, with the first account on the strategy's exchange.
  useEffect(() => {
    if (!target) return;
    setAmount(COPY_AMOUNT_DEFAULT);
    setMaxLoss(0);
    setMode('normal');
    setLateJoin(false);
    setDistance(COPY_ENTRY_DISTANCE_DEFAULT_PERCENT);
    setProtection(NO_PROTECTION);
    setProtectionOpen(false);
    setFailure(null);
    setAccountId(null);
    setSimulationDays(COPY_SIMULATION_DAYS_DEFAULT);
  }, [target]);
  useEffect(() => {
    const timer = setTimeout(() => setSimulatedAmount(amount), SIMULATION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [amount]);
  useEffect(() => {
    if (accountId !== null || accounts.length === 0 || !target) return;
    const sameExchange = accounts.find((a) => a.exchange === target.exchange);
    setAccountId((sameExchange ?? accounts[0])?.id ?? null);
  }, [accounts, accountId, target]);

  const chosen = accounts.find((a) => a.id === accountId) ?? null;
  const isCross = chosen !== null && target !== null && chosen.exchange !== target.exchange;
  const coins = balance.data?.balance ?? null;
  const isLoading = apis.isPending || balance.isPending;
  const loadFailed = apis.isError || balance.isError;
  const balanceTooLow = coins !== null && compareDecimal(coins, COPY_MIN_BALANCE_COINS) === -1;
  const amountProblem = copyAmountProblem(amount);
  const distanceProblem = lateJoin ? entryDistanceProblem(distance) : null;
  const lossProblem = maxLoss !== null && (!Number.isFinite(maxLoss) || maxLoss < 0);
  const protectionRefused = isProtectionRefused(protection);
  // The preview copies onto the chosen account's venue (paper accounts simulate paper fills).
  const simulation =
    target && simulatedAmount !== null && copyAmountProblem(simulatedAmount) === null
      ? {
          strategyId: target.id,
          copyAmount: simulatedAmount,
          mode,
          venue: chosen
            ? chosen.is_paper
              ? ('paper' as const)
              : chosen.exchange
            : target.exchange,
        }
      : null;
  const canSubmit =
    !isLoading &&
    !loadFailed &&
    chosen !== null &&
    amountProblem === null &&
    distanceProblem === null &&
    !protectionRefused &&
    !lossProblem &&
    !balanceTooLow &&
    coins !== null &&
    !create.isPending;

  const submit = () => {
    if (!target || !chosen || amount === null || !canSubmit) return;
    setFailure(null);
    create.mutate(
      {
        leader_account_id: target.id,
        follower_account_id: chosen.id,
        copy_amount: String(amount),
        max_loss: maxLossPayload(maxLoss),
        copy_mode: mode,
        open_current_positions: lateJoin,
        entry_distance_percent: distance ?? COPY_ENTRY_DISTANCE_DEFAULT_PERCENT,
        max_slippage_percent: protection.slippage,
        leader_drawdown_limit_percent: protection.drift,
      },
      {
        onSuccess: () => {
          void message.success(t('copy.modal.success'));
          onClose();
          navigate('/my/copy-trading');
        },
        onError: (error) => setFailure(copyCreateErrorText(t, error)),
      },
    );
  };

  let body: React.ReactNode;
  if (isLoading) {
    body = <Skeleton active paragraph={{ rows: 5 }} />;
  } else if (loadFailed) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('copy.modal.loadFailed')}
        data-testid="copy-load-failed"
      />
    );
  } else if (accounts.length === 0) {
    body = (
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
  } else {
    body = (
      <Form layout="vertical" requiredMark={false} onFinish={submit} component="div">
        <CopyAccountField
          accounts={accounts}
          targetExchange={target?.exchange ?? null}
          value={accountId}
          onChange={setAccountId}
        />
        {isCross && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('copy.modal.crossExchangeWarning')}
            data-testid="copy-cross-warning"
          />
        )}
        <Flex gap={12} wrap>
          <Form.Item
            label={t('copy.modal.amount')}
            style={{ flex: '1 1 160px', marginBottom: 12 }}
            validateStatus={amountProblem ? 'error' : undefined}
            help={amountProblem ? copyAmountRuleText(t, amountProblem) : undefined}
          >
            <InputNumber<number>
              step={COPY_AMOUNT_STEP}
              value={amount}
              onChange={setAmount}
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
              value={maxLoss}
              onChange={setMaxLoss}
              style={{ width: '100%' }}
              data-testid="copy-max-loss"
            />
          </Form.Item>
        </Flex>
        <CopyModeField value={mode} onChange={setMode} />
        <CopySimulationPanel
          params={simulation}
          days={simulationDays}
          onDaysChange={setSimulationDays}
        />
        <CopyLateJoinFields
          isOn={lateJoin}
          onToggle={setLateJoin}
          distance={distance}
          onDistance={setDistance}
          hasDistanceProblem={distanceProblem !== null}
        />
        <Collapse
          ghost
          size="small"
          style={{ marginBottom: 12, marginInline: -16 }}
          // Kept open while a value in it is refused, so the refusal is never hidden.
          activeKey={protectionOpen || protectionRefused ? ['protection'] : []}
          onChange={(keys) => setProtectionOpen(keys.length > 0)}
          items={[
            {
              key: 'protection',
              label: t('copy.modal.protection'),
              forceRender: true,
              children: (
                <CopyProtectionFields value={protection} onChange={setProtection} mode={mode} />
              ),
            },
          ]}
          data-testid="copy-protection"
        />
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('copy.modal.explanation', { fee: COPY_FEE_COINS })}
        />
        <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 4 }}>
          <Typography.Text type="secondary">{t('copy.modal.balance')}</Typography.Text>
          <Typography.Text strong data-testid="copy-balance">
            {t('copy.modal.coins', { amount: formatCoinAmount(coins, i18n.language) })}
          </Typography.Text>
        </Flex>
        {balanceTooLow && (
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
      </Form>
    );
  }

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
      {body}
    </Modal>
  );
}
