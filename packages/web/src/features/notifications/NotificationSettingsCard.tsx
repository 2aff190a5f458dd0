import '../../i18n/notifications-texts';
import {
  ERROR_CODES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_LANGUAGES,
  type NotificationChannel,
  type NotificationKind,
  type NotificationLanguage,
  type NotificationSettings,
  type TelegramLinkResponse,
} from '@quantsquare/contracts';
import { App, Button, Card, Flex, Select, Skeleton, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorBody, errorMessage } from '../../api/errors';
import {
  useNotificationSettings,
  useTelegramLink,
  useTelegramUnlink,
  useUpdateNotificationSettings,
} from '../../api/notifications';
import { QueryErrorAlert } from '../../shared/ui/QueryState';

function TelegramSection({ settings }: { settings: NotificationSettings }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const link = useTelegramLink();
  const unlink = useTelegramUnlink();
  const current = useNotificationSettings();
  const [pending, setPending] = useState<TelegramLinkResponse | null>(null);
  const failed = (error: unknown) =>
    message.error(
      apiErrorBody(error)?.code === ERROR_CODES.telegramUnavailable
        ? t('notifications.settings.telegramUnavailable')
        : errorMessage(t, error, t('notifications.settings.saveFailed')),
    );
  if (!settings.telegram.available) {
    return (
      <Typography.Text type="secondary" data-testid="telegram-unavailable">
        {t('notifications.settings.telegramUnavailable')}
      </Typography.Text>
    );
  }
  if (settings.telegram.linked) {
    return (
      <Flex align="center" gap={8} wrap data-testid="telegram-linked">
        <Typography.Text>
          {settings.telegram.chat_name
            ? t('notifications.settings.telegramLinked', { name: settings.telegram.chat_name })
            : t('notifications.settings.telegramLinkedNoName')}
        </Typography.Text>
        <Button
          size="small"
          loading={unlink.isPending}
          onClick={() => unlink.mutate(undefined, { onError: failed })}
          data-testid="telegram-unlink"
        >
          {t('notifications.settings.telegramUnlink')}
        </Button>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={8} data-testid="telegram-not-linked">
      <Flex align="center" gap={8} wrap>
        <Typography.Text type="secondary">
          {t('notifications.settings.telegramNotLinked')}
        </Typography.Text>
        <Button
          size="small"
          type="primary"
          loading={link.isPending}
          onClick={() => link.mutate(undefined, { onSuccess: setPending, onError: failed })}
          data-testid="telegram-link"
        >
          {t('notifications.settings.telegramLink')}
        </Button>
      </Flex>
      {pending && (
        <Flex vertical gap={4}>
          <a href={pending.link} target="_blank" rel="noreferrer" data-testid="telegram-link-url">
            {t('notifications.settings.telegramOpen')}
          </a>
          <Typography.Text type="secondary" copyable={{ text: `/start ${pending.code}` }}>
            {t('notifications.settings.telegramCodeHint', {
              bot: pending.bot_username,
              code: pending.code,
            })}
          </Typography.Text>
          <Button
            size="small"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => void current.refetch()}
          >
            {t('notifications.settings.telegramRefresh')}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}

/** Per event kind and channel switches, the messages' language, and the Telegram link. */
export function NotificationSettingsCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const save = (body: Parameters<typeof update.mutate>[0]) =>
    update.mutate(body, {
      onSuccess: () => message.success(t('notifications.settings.saved')),
      onError: (error) =>
        message.error(errorMessage(t, error, t('notifications.settings.saveFailed'))),
    });
  const title = t('notifications.settings.title');
  if (settings.isError && !settings.data) {
    return (
      <Card title={title}>
        <QueryErrorAlert query={settings} failedText={t('notifications.loadFailed')} textOnly />
      </Card>
    );
  }
  if (!settings.data) {
    return (
      <Card title={title}>
        <Skeleton active />
      </Card>
    );
  }
  const data = settings.data;
  const isDisabled = (channel: NotificationChannel) =>
    (channel === 'email' && data.email === null) ||
    (channel === 'telegram' && !data.telegram.linked);
  const cell = { padding: '8px 4px', borderBottom: `1px solid ${token.colorBorderSecondary}` };
  return (
    <Card title={title} data-testid="notification-settings">
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">{t('notifications.settings.subtitle')}</Typography.Text>
        <div style={{ overflowX: 'auto' }}>
          <table style={{ width: '100%', borderCollapse: 'collapse' }}>
            <thead>
              <tr>
                <th style={{ ...cell, textAlign: 'start' }}>{t('notifications.settings.event')}</th>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <th key={channel} style={{ ...cell, textAlign: 'center', whiteSpace: 'nowrap' }}>
                    {t(`notifications.settings.channels.${channel}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_KINDS.map((kind: NotificationKind) => (
                <tr key={kind}>
                  <td style={cell}>{t(`notifications.kinds.${kind}`)}</td>
                  {NOTIFICATION_CHANNELS.map((channel) => (
                    <td key={channel} style={{ ...cell, textAlign: 'center' }}>
                      <Switch
                        size="small"
                        checked={data.channels[channel][kind]}
                        disabled={isDisabled(channel)}
                        aria-label={`${t(`notifications.kinds.${kind}`)} · ${t(`notifications.settings.channels.${channel}`)}`}
                        data-testid={`notification-switch-${channel}-${kind}`}
                        onChange={(checked) =>
                          save({ channels: { [channel]: { [kind]: checked } } })
                        }
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {data.email === null && (
          <Typography.Text type="secondary">{t('notifications.settings.noEmail')}</Typography.Text>
        )}
        <Flex align="center" gap={8} wrap>
          <Typography.Text>{t('notifications.settings.language')}</Typography.Text>
          <Select<NotificationLanguage>
            value={data.language}
            style={{ minWidth: 140 }}
            onChange={(language) => save({ language })}
            options={NOTIFICATION_LANGUAGES.map((language) => ({
              value: language,
              label: t(`notifications.settings.languages.${language}`),
            }))}
            data-testid="notification-language"
          />
        </Flex>
        <Flex vertical gap={8}>
          <Typography.Text strong>{t('notifications.settings.telegramTitle')}</Typography.Text>
          <TelegramSection settings={data} />
        </Flex>
      </Flex>
    </Card>
  );
}
