import { BALANCE_POLL_INTERVAL_MS, BALANCE_POLL_MAX_ATTEMPTS } from '@quantsquare/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCoinAmount } from '../../shared/format/money';
import { Spinner } from '../../shared/ui/Spinner';
import type { BalancePollState } from './use-balance-poll';

/** What the balance polling after a deposit is doing: checking, credited, or given up. */
export function BalancePollNotice({ state }: { state: BalancePollState }) {
  const { t, i18n } = useTranslation();
  if (state.phase === 'idle') return null;
  const style = { marginBottom: 16 };
  if (state.phase === 'credited') {
    return (
      <Alert
        type="success"
        showIcon
        style={style}
        data-testid="deposit-poll"
        data-phase="credited"
        title={t('deposit.credited', { balance: formatCoinAmount(state.balance, i18n.language) })}
      />
    );
  }
  if (state.phase === 'stopped') {
    return (
      <Alert
        type="info"
        showIcon
        style={style}
        data-testid="deposit-poll"
        data-phase="stopped"
        title={t('deposit.pollStopped')}
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      icon={<Spinner size="small" />}
      style={style}
      data-testid="deposit-poll"
      data-phase="polling"
      title={t('deposit.polling', {
        attempt: Math.max(state.attempt, 1),
        max: BALANCE_POLL_MAX_ATTEMPTS,
        seconds: BALANCE_POLL_INTERVAL_MS / 1000,
      })}
    />
  );
}
