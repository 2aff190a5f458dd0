import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import type { Announcement } from '@quantsquare/contracts';
import { Alert, App, Button, Flex, Modal, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAnnouncement, useDeleteAnnouncement } from '../../api/help';
import { useIsMobile } from '../../shared/ui/use-is-mobile';
import { publishedText, TYPE_COLORS, useNow } from './announcement-format';
import { RichContent } from './RichContent';

interface Props {
  /** The announcement as the list showed it; null: closed. */
  announcement: Announcement | null;
  isStaff: boolean;
  onClose: () => void;
  onEdit: (announcement: Announcement) => void;
}

/**
 * The detail overlay. Opening it reads the announcement again (the server counts the view);
 * until that answers, the list's copy is shown.
 */
export function AnnouncementDetailModal({ announcement, isStaff, onClose, onEdit }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const isMobile = useIsMobile();
  const now = useNow();
  const detail = useAnnouncement(announcement?.id ?? null);
  const remove = useDeleteAnnouncement();
  const shown = detail.data ?? announcement;

  const confirmDelete = (target: Announcement) =>
    modal.confirm({
      title: t('helpCenter.announcements.detail.deleteTitle'),
      content: t('helpCenter.announcements.detail.deleteConfirm', { title: target.title }),
      okText: t('helpCenter.announcements.detail.delete'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, autoInsertSpace: false },
      cancelButtonProps: { autoInsertSpace: false },
      onOk: () =>
        remove
          .mutateAsync(target.id)
          .then(() => {
            void message.success(t('helpCenter.announcements.detail.deleted'));
            onClose();
          })
          .catch(() => {
            void message.error(t('helpCenter.announcements.detail.deleteFailed'));
          }),
    });

  return (
    <Modal
      open={announcement !== null}
      onCancel={onClose}
      width={isMobile ? '100%' : 760}
      style={isMobile ? { top: 12, maxWidth: 'calc(100vw - 16px)' } : undefined}
      destroyOnHidden
      title={
        shown && (
          <Flex gap={8} align="baseline" wrap style={{ paddingInlineEnd: 24 }}>
            <Tag color={TYPE_COLORS[shown.type]} style={{ marginInlineEnd: 0 }}>
              {t(`helpCenter.announcements.types.${shown.type}`)}
            </Tag>
            <span style={{ overflowWrap: 'anywhere' }} data-testid="announcement-detail-title">
              {shown.title}
            </span>
          </Flex>
        )
      }
      footer={
        <Flex justify="space-between" gap={8} wrap>
          <Flex gap={8}>
            {isStaff && shown && (
              <>
                <Button
                  icon={<EditOutlined />}
                  onClick={() => onEdit(shown)}
                  data-testid="announcement-edit"
                >
                  {t('helpCenter.announcements.detail.edit')}
                </Button>
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  loading={remove.isPending}
                  onClick={() => confirmDelete(shown)}
                  data-testid="announcement-delete"
                >
                  {t('helpCenter.announcements.detail.delete')}
                </Button>
              </>
            )}
          </Flex>
          <Button type="primary" onClick={onClose} data-testid="announcement-detail-close">
            {t('helpCenter.announcements.detail.close')}
          </Button>
        </Flex>
      }
      data-testid="announcement-detail"
    >
      {shown && (
        <Flex vertical gap={12}>
          <Flex gap={12} wrap style={{ color: token.colorTextSecondary, fontSize: 13 }}>
            <span title={new Date(shown.created_at).toLocaleString()}>
              {publishedText(t, shown.created_at, now)}
            </span>
            <span>{t('helpCenter.announcements.author', { name: shown.author_name })}</span>
            <span>
              <EyeOutlined /> {t('helpCenter.announcements.views', { count: shown.views })}
            </span>
          </Flex>
          <Typography.Paragraph
            type="secondary"
            style={{
              margin: 0,
              padding: '8px 12px',
              background: token.colorFillQuaternary,
              borderRadius: token.borderRadius,
              overflowWrap: 'anywhere',
            }}
          >
            {shown.summary}
          </Typography.Paragraph>
          {detail.isError && !detail.data && (
            <Alert
              type="warning"
              showIcon
              title={t('helpCenter.announcements.detail.loadFailed')}
            />
          )}
          <RichContent html={shown.content} testId="announcement-content" />
        </Flex>
      )}
    </Modal>
  );
}
