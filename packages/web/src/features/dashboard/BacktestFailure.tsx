import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';

/**
 * Why the backtest failed, said by the answer's code. A chunk of its own: the error mapping (and
 * the field-error texts it needs) is fetched only when a backtest fails.
 */
export default function BacktestFailure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return t('dashboard.backtest.failedWith', {
    message: errorMessage(t, error, t('errors.generic')),
  });
}
