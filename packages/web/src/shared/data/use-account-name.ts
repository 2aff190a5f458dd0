import '../../i18n/accounts-texts';
import { useTranslation } from 'react-i18next';
import { useExchangeApis } from '../../api/accounts';
import { accountName } from '../format/account-format';

/**
 * Names one of the user's own accounts from an answer that carries only its id and raw name (a
 * bot, a webhook): the experience account's default name is said in the reader's language.
 */
export function useAccountName(): (id: number, rawName: string) => string {
  const { t } = useTranslation();
  const apis = useExchangeApis();
  const experienceName = t('apis.experienceName');
  return (id, rawName) => {
    const account = apis.data?.results.find((a) => a.id === id);
    return accountName(account ?? { name: rawName }, experienceName);
  };
}
