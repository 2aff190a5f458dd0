import { EyeOutlined, PlusOutlined } from '@ant-design/icons';
import type { Announcement } from '@quantsquare/contracts';
import {
  Alert,
  Badge,
  Button,
  Card,
  Empty,
  Flex,
  Pagination,
  Skeleton,
  Tag,
  Typography,
  theme,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/auth';
import { useAnnouncements, useMarkAnnouncementRead } from '../../api/help';
import { useIsLoggedIn } from '../../api/tokens';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { AnnouncementDetailModal } from './AnnouncementDetailModal';
import { AnnouncementFormModal } from './AnnouncementFormModal';
import { publishedText, TYPE_COLORS, useNow } from './announcement-format';

function AnnouncementRow({
  announcement,
  now,
  isLast,
  onOpen,
}: {
  announcement: Announcement;
  now: number;
  isLast: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      className="qs-announcement-row"
      style={{
        position: 'relative',
        padding: '14px 16px',
        borderBottom: isLast ? undefined : `1px solid ${token.colorBorderSecondary}`,
      }}
      data-testid="announcement-row"
      data-id={announcement.id}
      data-new={announcement.is_new ? 'true' : 'false'}
    >
      <Flex gap={8} align="center" wrap style={{ marginBottom: 4 }}>
        <Tag color={TYPE_COLORS[announcement.type]} style={{ marginInlineEnd: 0 }}>
          {t(`helpCenter.announcements.types.${announcement.type}`)}
        </Tag>
        {announcement.is_new && (
          <Badge
            status="error"
            text={
              <span style={{ color: token.colorError, fontSize: 12 }}>
                {t('helpCenter.announcements.newTag')}
              </span>
            }
            data-testid="announcement-new"
          />
        )}
        {/* The title is the row's button; its ::after stretches over the whole row. */}
        <button
          type="button"
          className="qs-announcement-open"
          onClick={onOpen}
          style={{ flex: '1 1 200px', minWidth: 0, fontWeight: 600, color: token.colorText }}
          data-testid="announcement-row-title"
        >
          {announcement.title}
        </button>
      </Flex>
      <Typography.Paragraph
        type="secondary"
        ellipsis={{ rows: 2 }}
        style={{ margin: '0 0 6px', overflowWrap: 'anywhere' }}
      >
        {announcement.summary}
      </Typography.Paragraph>
      <Flex gap={12} wrap style={{ color: token.colorTextTertiary, fontSize: 12 }}>
        <span title={new Date(announcement.created_at).toLocaleString()}>
          {publishedText(t, announcement.created_at, now)}
        </span>
        <span>{t('helpCenter.announcements.author', { name: announcement.author_name })}</span>
        <span>
          <EyeOutlined /> {t('helpCenter.announcements.views', { count: announcement.views })}
        </span>
      </Flex>
    </div>
  );
}

/** The announcements tab: paged list, detail overlay, staff's publish button (document 2 §2). */
export function AnnouncementsView() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const isLoggedIn = useIsLoggedIn();
  const profile = useProfile();
  const isStaff = isLoggedIn && profile.data?.is_staff === true;
  const [page, setPage] = useState(1);
  const list = useAnnouncements(page);
  const markRead = useMarkAnnouncementRead();
  const now = useNow();
  const [opened, setOpened] = useState<Announcement | null>(null);
  const [editing, setEditing] = useState<Announcement | null>(null);
  const [isFormOpen, setFormOpen] = useState(false);

  // A failed load empties the list (document 2 §8).
  const results = list.isError ? [] : (list.data?.results ?? []);
  const count = list.isError ? 0 : (list.data?.count ?? 0);

  const open = (announcement: Announcement) => {
    setOpened(announcement);
    if (isLoggedIn && announcement.is_new) markRead.mutate(announcement.id);
  };

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('helpCenter.announcements.title')}
        </Typography.Title>
        {isStaff && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
            data-testid="announcement-publish"
          >
            {t('helpCenter.announcements.publish')}
          </Button>
        )}
      </Flex>
      {list.isError && (
        <Alert
          type="error"
          showIcon
          title={t('helpCenter.announcements.loadFailed')}
          action={
            <Button size="small" onClick={() => void list.refetch()} loading={list.isFetching}>
              {t('helpCenter.announcements.retry')}
            </Button>
          }
          data-testid="announcements-error"
        />
      )}
      {list.isPending && (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {list.isSuccess && results.length === 0 && (
        <Card>
          <Empty
            description={t('helpCenter.announcements.empty')}
            data-testid="announcements-empty"
          />
        </Card>
      )}
      {results.length > 0 && (
        <Card styles={{ body: { padding: 0 } }} data-testid="announcement-list">
          {results.map((announcement, index) => (
            <AnnouncementRow
              key={announcement.id}
              announcement={announcement}
              now={now}
              isLast={index === results.length - 1}
              onOpen={() => open(announcement)}
            />
          ))}
        </Card>
      )}
      {count > results.length && (
        <Flex justify="center">
          <Pagination
            current={page}
            total={count}
            pageSize={list.data?.page_size ?? 10}
            showSizeChanger={false}
            simple={isMobile}
            onChange={setPage}
            data-testid="announcement-pages"
          />
        </Flex>
      )}
      <AnnouncementDetailModal
        announcement={opened}
        isStaff={isStaff}
        onClose={() => setOpened(null)}
        onEdit={(announcement) => {
          setOpened(null);
          setEditing(announcement);
          setFormOpen(true);
        }}
      />
      {isStaff && (
        <AnnouncementFormModal
          open={isFormOpen}
          editing={editing}
          onClose={() => setFormOpen(false)}
          onSaved={() => {
            if (!editing) setPage(1);
          }}
        />
      )}
    </Flex>
  );
}
