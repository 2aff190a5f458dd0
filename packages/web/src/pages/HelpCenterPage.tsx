import '../i18n/help-texts';
import '../features/help/help.css';
import {
  BookOutlined,
  CustomerServiceOutlined,
  NotificationOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { App, Badge, Button, Card, Menu, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAnnouncementsLive, useUnreadCount } from '../api/help';
import { AnnouncementsView } from '../features/help/AnnouncementsView';
import { ContactView } from '../features/help/ContactView';
import { FaqView } from '../features/help/FaqView';
import { TutorialView } from '../features/help/TutorialView';
import { useIsMobile } from '../shared/ui/use-is-mobile';

const TABS = ['tutorial', 'announcements', 'faq', 'contact'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab =>
  value !== null && (TABS as readonly string[]).includes(value);

/**
 * /help-center (document 2 §2): tutorial (default), announcements with the unread badge, FAQ and
 * contact. The tab is in the address (?tab=…) so it can be linked and survives a reload.
 */
export function HelpCenterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const isMobile = useIsMobile();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'tutorial';
  const unread = useUnreadCount();

  // New announcements arrive while the page is open: the list and badge refresh by themselves.
  useAnnouncementsLive((frame) => {
    void message.info(t('helpCenter.announcements.live', { title: frame.data.title }));
  });

  const select = (key: Tab) => {
    setParams(key === 'tutorial' ? {} : { tab: key }, { replace: true });
    window.scrollTo({ top: 0 });
  };
  const unreadBadge = unread > 0 && (
    <Badge
      count={unread}
      overflowCount={99}
      size="small"
      title={t('helpCenter.unreadBadge', { count: unread })}
      data-testid="announcements-unread-badge"
    />
  );
  const icons: Record<Tab, ReactNode> = {
    tutorial: <BookOutlined />,
    announcements: <NotificationOutlined />,
    faq: <QuestionCircleOutlined />,
    contact: <CustomerServiceOutlined />,
  };
  const items = TABS.map((key) => ({
    key,
    icon: icons[key],
    label:
      key === 'announcements' ? (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
          {t('helpCenter.tabs.announcements')}
          {unreadBadge}
        </span>
      ) : (
        t(`helpCenter.tabs.${key}`)
      ),
  }));

  // On a phone all four tabs stay in sight as a 2 × 2 grid (a horizontal menu would fold two away).
  const mobileTabs = (
    <nav
      aria-label={t('helpCenter.menuLabel')}
      style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}
      data-testid="help-menu"
    >
      {TABS.map((key) => (
        <Button
          key={key}
          icon={icons[key]}
          type={key === tab ? 'primary' : 'default'}
          aria-current={key === tab ? 'page' : undefined}
          onClick={() => select(key)}
          style={{ justifyContent: 'flex-start', minWidth: 0 }}
          data-testid={`help-tab-button-${key}`}
        >
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {t(`helpCenter.tabs.${key}`)}
          </span>
          {key === 'announcements' && unreadBadge}
        </Button>
      ))}
    </nav>
  );
  const menu = (
    <Menu
      aria-label={t('helpCenter.menuLabel')}
      mode={isMobile ? 'horizontal' : 'inline'}
      selectedKeys={[tab]}
      items={items}
      onClick={({ key }) => select(key as Tab)}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
      data-testid="help-menu"
    />
  );

  return (
    <div
      style={{
        display: 'flex',
        flexDirection: isMobile ? 'column' : 'row',
        gap: isMobile ? 12 : 24,
        alignItems: 'flex-start',
      }}
    >
      {isMobile ? (
        <div style={{ width: '100%' }}>
          <Typography.Title level={3} style={{ margin: '0 0 12px' }}>
            {t('helpCenter.title')}
          </Typography.Title>
          {mobileTabs}
        </div>
      ) : (
        <Card
          size="small"
          title={t('helpCenter.title')}
          style={{ width: 220, flexShrink: 0, position: 'sticky', top: 88 }}
          styles={{ body: { padding: 4 } }}
        >
          {menu}
        </Card>
      )}
      <div style={{ flex: 1, minWidth: 0, width: '100%' }} data-testid={`help-tab-${tab}`}>
        {tab === 'tutorial' && <TutorialView />}
        {tab === 'announcements' && <AnnouncementsView />}
        {tab === 'faq' && <FaqView />}
        {tab === 'contact' && <ContactView />}
      </div>
    </div>
  );
}
