import {
  ApiOutlined,
  CloseOutlined,
  CopyOutlined,
  GiftOutlined,
  LineChartOutlined,
  SafetyOutlined,
} from '@ant-design/icons';
import { EXPERIENCE_ACCOUNT_BALANCE, WELCOME_MODAL_DELAY_MS } from '@quantsquare/contracts';
import { Button, Flex, theme } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatGrouped } from '../../shared/format/money';
import { Text } from '../../shared/ui/ui';
import { rememberClosed, wasClosedBefore } from './welcome-state';

function Feature({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Flex gap={10} align="flex-start">
      <span style={{ fontSize: 18, lineHeight: '22px' }}>{icon}</span>
      <Text>{text}</Text>
    </Flex>
  );
}

/**
 * Welcome advertisement: 1.5 s after load unless closed on an earlier visit (document 1 §2). A
 * chunk of its own, which the dashboard fetches only while it has not been closed.
 */
export default function WelcomeModal({ isLoggedIn }: { isLoggedIn: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (wasClosedBefore()) return;
    const timer = setTimeout(() => setOpen(true), WELCOME_MODAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const close = () => {
    rememberClosed();
    setOpen(false);
  };

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!open) return null;
  // A plain dialog rather than antd's Modal, which would add its code to the dashboard's load.
  return (
    <div
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
      }}
    >
      <button
        type="button"
        aria-label={t('dashboard.welcomeModal.close')}
        onClick={close}
        style={{
          position: 'absolute',
          inset: 0,
          border: 'none',
          background: 'rgba(0, 0, 0, 0.45)',
          cursor: 'default',
        }}
      />
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="welcome-modal-title"
        data-testid="welcome-modal"
        style={{
          position: 'relative',
          width: '100%',
          maxWidth: 460,
          maxHeight: '100%',
          overflowY: 'auto',
          background: token.colorBgElevated,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadow,
          padding: '20px 24px',
        }}
      >
        <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
          <h2 id="welcome-modal-title" style={{ margin: 0, fontSize: 18, color: token.colorText }}>
            {t('dashboard.welcomeModal.title')}
          </h2>
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label={t('dashboard.welcomeModal.close')}
            onClick={close}
          />
        </Flex>
        <Flex vertical gap={12}>
          <Text tone="secondary">{t('dashboard.welcomeModal.intro')}</Text>
          <Feature icon={<CopyOutlined />} text={t('dashboard.welcomeModal.copyTrading')} />
          <Feature icon={<LineChartOutlined />} text={t('dashboard.welcomeModal.monitoring')} />
          <Feature icon={<SafetyOutlined />} text={t('dashboard.welcomeModal.riskControl')} />
          <Feature icon={<ApiOutlined />} text={t('dashboard.welcomeModal.exchanges')} />
          {/* Every new user gets a paper experience account with this balance at registration. */}
          <Feature
            icon={<GiftOutlined />}
            text={t('dashboard.welcomeModal.bonus', {
              balance: formatGrouped(EXPERIENCE_ACCOUNT_BALANCE, i18n.language),
            })}
          />
        </Flex>
        <Flex justify="flex-end" gap={8} style={{ marginTop: 20 }}>
          {!isLoggedIn && (
            <Button
              type="primary"
              onClick={() => {
                close();
                navigate('/register');
              }}
            >
              {t('dashboard.welcomeModal.registerNow')}
            </Button>
          )}
          <Button onClick={close} data-testid="welcome-modal-close">
            {t('dashboard.welcomeModal.close')}
          </Button>
        </Flex>
      </div>
    </div>
  );
}
