import {
  COPY_AMOUNT_DEFAULT,
  COPY_ENTRY_DISTANCE_DEFAULT_PERCENT,
  COPY_MIN_BALANCE_COINS,
  COPY_SIMULATION_DAYS_DEFAULT,
  type CopyMode,
  type CopySimulationDays,
  type Exchange,
  type ExchangeApi,
} from '@quantsquare/contracts';
import { App } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { useCreateCopy } from '../../api/copy-trading';
import { compareDecimal } from '../../shared/format/decimal';
import { type CopyProtection, isProtectionRefused } from './CopyProtectionFields';
import { copyCreateErrorText } from './copy-errors';
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

/**
 * The copy modal's values. Each opening starts from the defaults, with the first account on the
 * strategy's exchange; the simulated amount follows the amount once it has settled.
 */
export function useCopyForm(target: CopyTarget | null, accounts: readonly ExchangeApi[]) {
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

  return {
    accountId,
    setAccountId,
    amount,
    setAmount,
    maxLoss,
    setMaxLoss,
    mode,
    setMode,
    lateJoin,
    setLateJoin,
    distance,
    setDistance,
    protection,
    setProtection,
    protectionOpen,
    setProtectionOpen,
    failure,
    setFailure,
    simulationDays,
    setSimulationDays,
    simulatedAmount,
  };
}

export type CopyForm = ReturnType<typeof useCopyForm>;

/** What the values allow: the chosen account, each refusal, and the simulation to ask for. */
export function copyFormChecks(
  form: CopyForm,
  target: CopyTarget | null,
  accounts: readonly ExchangeApi[],
  coins: string | null,
) {
  const chosen = accounts.find((a) => a.id === form.accountId) ?? null;
  const { simulatedAmount } = form;
  return {
    chosen,
    isCross: chosen !== null && target !== null && chosen.exchange !== target.exchange,
    balanceTooLow: coins !== null && compareDecimal(coins, COPY_MIN_BALANCE_COINS) === -1,
    amountProblem: copyAmountProblem(form.amount),
    distanceProblem: form.lateJoin ? entryDistanceProblem(form.distance) : null,
    lossProblem: form.maxLoss !== null && (!Number.isFinite(form.maxLoss) || form.maxLoss < 0),
    protectionRefused: isProtectionRefused(form.protection),
    // The preview copies onto the chosen account's venue (paper accounts simulate paper fills).
    simulation:
      target && simulatedAmount !== null && copyAmountProblem(simulatedAmount) === null
        ? {
            strategyId: target.id,
            copyAmount: simulatedAmount,
            mode: form.mode,
            venue: chosen
              ? chosen.is_paper
                ? ('paper' as const)
                : chosen.exchange
              : target.exchange,
          }
        : null,
  };
}

export type CopyChecks = ReturnType<typeof copyFormChecks>;

/** Copying: success tells the user, closes the modal and goes to /my/copy-trading. */
export function useCopySubmit(
  target: CopyTarget | null,
  form: CopyForm,
  chosen: ExchangeApi | null,
  canSubmit: boolean,
  create: ReturnType<typeof useCreateCopy>,
  onClose: () => void,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  return () => {
    const { amount } = form;
    if (!target || !chosen || amount === null || !canSubmit) return;
    form.setFailure(null);
    create.mutate(
      {
        leader_account_id: target.id,
        follower_account_id: chosen.id,
        copy_amount: String(amount),
        max_loss: maxLossPayload(form.maxLoss),
        copy_mode: form.mode,
        open_current_positions: form.lateJoin,
        entry_distance_percent: form.distance ?? COPY_ENTRY_DISTANCE_DEFAULT_PERCENT,
        max_slippage_percent: form.protection.slippage,
        leader_drawdown_limit_percent: form.protection.drift,
      },
      {
        onSuccess: () => {
          void message.success(t('copy.modal.success'));
          onClose();
          navigate('/my/copy-trading');
        },
        onError: (error) => form.setFailure(copyCreateErrorText(t, error)),
      },
    );
  };
}
