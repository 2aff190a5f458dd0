import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BotExists } from '../../shared/format/bot-format';

/** The create refused because the bot exists already: what exists and what to do. */
export function BotExistsAlert({ exists }: { exists: BotExists }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="bot-exists-alert"
      title={t('bots.server.alreadyExists')}
      description={
        <>
          <div>{t('bots.server.alreadyExistsDetails')}</div>
          <div>{t('bots.server.alreadyExistsSuggestion')}</div>
          {exists.existingBot && (
            <div>
              {t('bots.existing', {
                id: exists.existingBot.id,
                status: t(`bots.status.${exists.existingBot.status}`, {
                  defaultValue: exists.existingBot.status,
                }),
              })}
            </div>
          )}
        </>
      }
    />
  );
}
