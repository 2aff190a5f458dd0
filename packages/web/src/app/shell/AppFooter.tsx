import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { TELEGRAM_URL, TWITTER_URL } from '../links';

export function AppFooter() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <footer
      style={{
        padding: '20px 16px',
        textAlign: 'center',
        borderTop: `1px solid ${token.colorBorderSecondary}`,
        color: token.colorTextSecondary,
        fontSize: 13,
      }}
    >
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 16 }}>
          <a
            href={TELEGRAM_URL}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="footer-telegram"
          >
            {t('footer.telegram')}
          </a>
          <a
            href={TWITTER_URL}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="footer-twitter"
          >
            {t('footer.twitter')}
          </a>
        </div>
        <span>{t('footer.risk')}</span>
        <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
      </div>
    </footer>
  );
}
