import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSiteLinks } from '../../api/site';

function ExternalLink({ href, testId, label }: { href: string; testId: string; label: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {label}
    </a>
  );
}

/**
 * Footer (document 2 §2): copyright, Telegram and Twitter links. The links come from the
 * server's configuration (GET /api/help/contact/); one it does not give is not shown.
 */
export function AppFooter() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const links = useSiteLinks();
  const hasLinks = links.telegramUrl !== null || links.xUrl !== null;
  return (
    <footer
      data-testid="app-footer"
      style={{
        padding: '20px 16px',
        textAlign: 'center',
        borderTop: `1px solid ${token.colorBorderSecondary}`,
        color: token.colorTextSecondary,
        fontSize: 13,
      }}
    >
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 }}>
        {hasLinks && (
          <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 16 }}>
            {links.telegramUrl && (
              <ExternalLink
                href={links.telegramUrl}
                testId="footer-telegram"
                label={t('footer.telegram')}
              />
            )}
            {links.xUrl && (
              <ExternalLink href={links.xUrl} testId="footer-twitter" label={t('footer.twitter')} />
            )}
          </div>
        )}
        <span>{t('footer.risk')}</span>
        <span data-testid="footer-copyright">
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </span>
      </div>
    </footer>
  );
}
