import { HeartFilled, HeartOutlined, MessageOutlined } from '@ant-design/icons';
import {
  COMMENT_MAX_LENGTH,
  type StrategyComment,
  type StrategyReply,
} from '@quantsquare/contracts';
import { App, Button, Card, Empty, Flex, Input, Spin, Typography, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { usePostComment, useStrategyComments, useToggleLike } from '../../api/square';
import { useIsLoggedIn } from '../../api/tokens';
import { squareErrorText } from '../../shared/errors/square-errors';
import { relativeTime } from '../../shared/format/square-format';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { ownerName } from './StrategyCardView';

const MINUTE_MS = 60_000;

/** The current time, moving every minute (relative times stay true while the page is open). */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function RelativeTimeText({ iso, now }: { iso: string; now: number }) {
  const { t, i18n } = useTranslation();
  const timeMs = Date.parse(iso);
  if (!Number.isFinite(timeMs)) return null;
  const ago = relativeTime(timeMs, now);
  const text =
    ago.unit === 'justNow'
      ? t('strategy.time.justNow')
      : ago.unit === 'date'
        ? new Date(ago.timeMs).toLocaleDateString(i18n.language)
        : t(`strategy.time.${ago.unit}`, { count: ago.count });
  return (
    <Typography.Text
      type="secondary"
      style={{ fontSize: 12 }}
      title={new Date(timeMs).toLocaleString(i18n.language)}
    >
      {text}
    </Typography.Text>
  );
}

interface ComposerProps {
  strategyId: number;
  parentId: number | null;
  placeholder: string;
  autoFocus?: boolean;
  onDone?: () => void;
  onCancel?: () => void;
}

/** A textarea with its counter and Post button (document 2 §5: trimmed, 1–500 characters). */
function Composer({
  strategyId,
  parentId,
  placeholder,
  autoFocus,
  onDone,
  onCancel,
}: ComposerProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const post = usePostComment(strategyId);
  const [content, setContent] = useState('');
  const trimmed = content.trim();
  const length = [...trimmed].length;
  const canPost = length > 0 && length <= COMMENT_MAX_LENGTH && !post.isPending;
  const submit = () => {
    if (!canPost) return;
    post.mutate(
      { content: trimmed, parent_id: parentId },
      {
        onSuccess: () => {
          setContent('');
          onDone?.();
        },
        onError: (error) =>
          void message.error(squareErrorText(t, error, t('strategy.comments.postFailed'))),
      },
    );
  };
  return (
    <Flex vertical gap={8}>
      <Input.TextArea
        value={content}
        onChange={(event) => setContent(event.target.value)}
        placeholder={placeholder}
        maxLength={COMMENT_MAX_LENGTH}
        showCount
        autoSize={{ minRows: parentId === null ? 3 : 2, maxRows: 8 }}
        autoFocus={autoFocus}
        data-testid={parentId === null ? 'comment-input' : 'reply-input'}
      />
      {/* Below the textarea's character counter. */}
      <Flex justify="end" gap={8} style={{ marginTop: 12 }}>
        {onCancel && <Button onClick={onCancel}>{t('strategy.comments.cancel')}</Button>}
        <Button
          type="primary"
          disabled={!canPost}
          loading={post.isPending}
          onClick={submit}
          data-testid={parentId === null ? 'comment-post' : 'reply-post'}
        >
          {t('strategy.comments.post')}
        </Button>
      </Flex>
    </Flex>
  );
}

interface ItemProps {
  comment: StrategyComment | StrategyReply;
  strategyId: number;
  now: number;
  /** Top-level comments take replies; replies nest one level only. */
  replyTarget: number | null;
}

function CommentItem({ comment, strategyId, now, replyTarget }: ItemProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const isLoggedIn = useIsLoggedIn();
  const like = useToggleLike(strategyId);
  const [isReplying, setReplying] = useState(false);
  const name = ownerName(comment.user_nickname, t('square.anonymous'));
  const toggleLike = () => {
    if (!isLoggedIn) {
      navigate('/login');
      return;
    }
    like.mutate(
      { commentId: comment.id, like: !comment.is_liked },
      {
        onError: (error) =>
          void message.error(squareErrorText(t, error, t('strategy.comments.likeFailed'))),
      },
    );
  };
  const startReply = () => {
    if (!isLoggedIn) {
      navigate('/login');
      return;
    }
    setReplying(true);
  };
  const replies = 'replies' in comment ? (comment.replies as StrategyReply[]) : [];
  return (
    <Flex gap={10} align="start" data-testid="comment" data-comment-id={comment.id}>
      <Link to={`/user/${comment.user_id}`} style={{ flex: 'none' }}>
        <UserAvatar url={comment.user_avatar} name={name} size={replyTarget === null ? 28 : 36} />
      </Link>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Flex gap={8} align="baseline" wrap>
          <Link to={`/user/${comment.user_id}`}>
            <Typography.Text strong>{name}</Typography.Text>
          </Link>
          <RelativeTimeText iso={comment.created_at} now={now} />
        </Flex>
        <Typography.Paragraph
          className="qs-comment-text"
          style={{ margin: '4px 0' }}
          data-testid="comment-content"
        >
          {comment.content}
        </Typography.Paragraph>
        <Flex gap={4}>
          <Button
            type="text"
            size="small"
            icon={
              comment.is_liked ? (
                <HeartFilled style={{ color: token.colorError }} />
              ) : (
                <HeartOutlined />
              )
            }
            onClick={toggleLike}
            aria-pressed={comment.is_liked}
            aria-label={
              comment.is_liked ? t('strategy.comments.unlike') : t('strategy.comments.like')
            }
            data-testid="comment-like"
          >
            <span data-testid="comment-likes">{comment.likes_count}</span>
          </Button>
          {replyTarget !== null && (
            <Button
              type="text"
              size="small"
              icon={<MessageOutlined />}
              onClick={startReply}
              data-testid="comment-reply"
            >
              {t('strategy.comments.reply')}
            </Button>
          )}
        </Flex>
        {isReplying && replyTarget !== null && (
          <div style={{ marginTop: 8 }}>
            <Composer
              strategyId={strategyId}
              parentId={replyTarget}
              placeholder={t('strategy.comments.replyPlaceholder', { name })}
              autoFocus
              onDone={() => setReplying(false)}
              onCancel={() => setReplying(false)}
            />
          </div>
        )}
        {replies.length > 0 && (
          <Flex
            vertical
            gap={12}
            style={{
              marginTop: 12,
              paddingInlineStart: 12,
              borderInlineStart: `2px solid ${token.colorBorderSecondary}`,
            }}
            data-testid="comment-replies"
          >
            {replies.map((reply) => (
              <CommentItem
                key={reply.id}
                comment={reply}
                strategyId={strategyId}
                now={now}
                replyTarget={null}
              />
            ))}
          </Flex>
        )}
      </div>
    </Flex>
  );
}

/**
 * Comments of a strategy (document 2 §2): the count, a composer for signed-in users (a login
 * prompt otherwise), each comment with avatar, nickname, relative time, content (plain text),
 * likes and replies nested one level.
 */
export function CommentsSection({ strategyId }: { strategyId: number }) {
  const { t } = useTranslation();
  const isLoggedIn = useIsLoggedIn();
  const comments = useStrategyComments(strategyId, true);
  const now = useNow();
  const pages = comments.data?.pages ?? [];
  const total = pages[0]?.total ?? 0;
  const list = pages.flatMap((page) => page.results);

  return (
    <Card
      size="small"
      title={
        <span data-testid="comments-title">{t('strategy.comments.title', { count: total })}</span>
      }
      data-testid="strategy-comments"
    >
      <Flex vertical gap={16}>
        {isLoggedIn ? (
          <Composer
            strategyId={strategyId}
            parentId={null}
            placeholder={t('strategy.comments.placeholder')}
          />
        ) : (
          <Flex
            justify="space-between"
            align="center"
            gap={8}
            wrap
            data-testid="comments-login-prompt"
          >
            <Typography.Text type="secondary">{t('strategy.comments.loginPrompt')}</Typography.Text>
            <Link to="/login">
              <Button type="primary" size="small">
                {t('strategy.comments.login')}
              </Button>
            </Link>
          </Flex>
        )}
        {comments.isPending ? (
          <Flex justify="center" style={{ padding: 16 }}>
            <Spin />
          </Flex>
        ) : comments.isError ? (
          <Typography.Text type="danger">
            {squareErrorText(t, comments.error, t('strategy.comments.loadFailed'))}
          </Typography.Text>
        ) : list.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('strategy.comments.empty')}
            data-testid="comments-empty"
          />
        ) : (
          <Flex vertical gap={16} data-testid="comments-list">
            {list.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                strategyId={strategyId}
                now={now}
                replyTarget={comment.id}
              />
            ))}
          </Flex>
        )}
        {comments.hasNextPage && (
          <Button
            block
            loading={comments.isFetchingNextPage}
            onClick={() => void comments.fetchNextPage()}
          >
            {t('strategy.comments.more')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
