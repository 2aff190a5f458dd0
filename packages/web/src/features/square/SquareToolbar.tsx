import { AppstoreOutlined, SearchOutlined, UnorderedListOutlined } from '@ant-design/icons';
import {
  EXCHANGES,
  type Exchange,
  SQUARE_PERIODS,
  SQUARE_QUICK_TAGS,
  SQUARE_SEARCH_DEBOUNCE_MS,
  SQUARE_SEARCH_MAX_LENGTH,
  SQUARE_SORTS,
  type SquareQuickTag,
} from '@quantsquare/contracts';
import { Flex, Input, Segmented, Select, Space, Tag, Tooltip, Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchMode, SquareListParams } from '../../api/square';
import { activeQuickTag } from './square-filters';

export type SquareView = 'grid' | 'list';

const TAG_KEYS: Record<
  SquareQuickTag,
  'highReturn' | 'lowRisk' | 'stable' | 'trending' | 'honest'
> = {
  high_return: 'highReturn',
  low_risk: 'lowRisk',
  stable: 'stable',
  trending: 'trending',
  honest: 'honest',
};

interface Props {
  filters: SquareListParams;
  onChange: (patch: Partial<SquareListParams>) => void;
  onModeChange: (mode: SearchMode) => void;
  onQuickTag: (tag: SquareQuickTag) => void;
  view: SquareView;
  onViewChange: (view: SquareView) => void;
  isMobile: boolean;
}

/** The venue, the order and the period of the square. */
function SquareSelects({
  filters,
  onChange,
  isMobile,
}: Pick<Props, 'filters' | 'onChange' | 'isMobile'>) {
  const { t } = useTranslation();
  const selectWidth = isMobile ? undefined : 140;
  return (
    <div
      style={{
        display: 'grid',
        // Two per row on a phone: three cut English labels ("All exc…").
        gridTemplateColumns: isMobile ? 'repeat(auto-fill, minmax(150px, 1fr))' : 'repeat(3, auto)',
        gap: 8,
        flex: isMobile ? '1 1 100%' : 'none',
      }}
    >
      <Select<Exchange | 'all'>
        value={filters.exchange ?? 'all'}
        onChange={(value) => onChange({ exchange: value === 'all' ? null : value })}
        aria-label={t('square.exchange')}
        style={{ width: selectWidth }}
        options={[
          { value: 'all', label: t('square.allExchanges') },
          ...EXCHANGES.map((exchange) => ({ value: exchange, label: exchange.toUpperCase() })),
        ]}
        data-testid="square-exchange"
      />
      <Select
        value={filters.sort}
        onChange={(sort) => onChange({ sort })}
        aria-label={t('square.sort')}
        style={{ width: selectWidth }}
        options={SQUARE_SORTS.map((sort) => ({
          value: sort,
          label: t(`square.sorts.${sort}`),
        }))}
        data-testid="square-sort"
      />
      <Select
        value={filters.period}
        onChange={(period) => onChange({ period })}
        aria-label={t('square.period')}
        style={{ width: selectWidth }}
        options={SQUARE_PERIODS.map((period) => ({
          value: period,
          label: t(`square.periods.${period}`),
        }))}
        data-testid="square-period"
      />
    </div>
  );
}

/** Cards or a list. */
function ViewToggle({
  view,
  onViewChange,
  isSmall = false,
}: Pick<Props, 'view' | 'onViewChange'> & { isSmall?: boolean }) {
  const { t } = useTranslation();
  return (
    <Segmented<SquareView>
      size={isSmall ? 'small' : undefined}
      value={view}
      onChange={onViewChange}
      style={isSmall ? { marginInlineStart: 'auto' } : undefined}
      options={[
        { value: 'grid', icon: <AppstoreOutlined />, title: t('square.views.grid') },
        { value: 'list', icon: <UnorderedListOutlined />, title: t('square.views.list') },
      ]}
      data-testid="square-view"
    />
  );
}

/**
 * Search (strategy or user, 500 ms debounce), filters, quick tags and the view toggle of the
 * square (document 2 §2, §9).
 */
export function SquareToolbar({
  filters,
  onChange,
  onModeChange,
  onQuickTag,
  view,
  onViewChange,
  isMobile,
}: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [text, setText] = useState(filters.search);
  // The last search this box sent: an address change from elsewhere (Back) refills the box.
  const sentRef = useRef(filters.search);

  useEffect(() => {
    if (filters.search !== sentRef.current) {
      sentRef.current = filters.search;
      setText(filters.search);
    }
  }, [filters.search]);

  useEffect(() => {
    if (text.trim() === sentRef.current.trim()) return;
    const timer = setTimeout(() => {
      sentRef.current = text;
      onChange({ search: text });
    }, SQUARE_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onChange]);

  const changeMode = (mode: SearchMode) => {
    sentRef.current = '';
    setText('');
    onModeChange(mode);
  };

  const quickTag = activeQuickTag(filters);

  return (
    <Flex vertical gap={12} data-testid="square-toolbar">
      <Flex gap={8} wrap align="center">
        <Space.Compact style={{ flex: isMobile ? '1 1 100%' : '1 1 320px', minWidth: 0 }}>
          <Select<SearchMode>
            value={filters.mode}
            onChange={changeMode}
            aria-label={t('square.searchModeLabel')}
            options={[
              { value: 'strategy', label: t('square.searchModes.strategy') },
              { value: 'user', label: t('square.searchModes.user') },
            ]}
            style={{ width: 108, flex: 'none' }}
            data-testid="square-search-mode"
          />
          <Input
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={SQUARE_SEARCH_MAX_LENGTH}
            allowClear
            prefix={<SearchOutlined />}
            placeholder={
              filters.mode === 'user' ? t('square.searchUser') : t('square.searchStrategy')
            }
            aria-label={
              filters.mode === 'user' ? t('square.searchUser') : t('square.searchStrategy')
            }
            data-testid="square-search"
          />
        </Space.Compact>
        <SquareSelects filters={filters} onChange={onChange} isMobile={isMobile} />
        {!isMobile && <ViewToggle view={view} onViewChange={onViewChange} />}
      </Flex>
      <Flex gap={6} align="center" wrap>
        <Typography.Text type="secondary" style={{ fontSize: 13, marginInlineEnd: 4 }}>
          {t('square.quickTags')}
        </Typography.Text>
        {SQUARE_QUICK_TAGS.map((tag) => (
          <Tooltip key={tag} title={t(`square.tagHints.${TAG_KEYS[tag]}`)}>
            <Tag.CheckableTag
              checked={quickTag === tag}
              onChange={() => onQuickTag(tag)}
              data-testid={`square-tag-${tag}`}
              style={{
                fontSize: 13,
                paddingBlock: 2,
                paddingInline: 10,
                borderRadius: 12,
                border: `1px solid ${quickTag === tag ? token.colorPrimary : token.colorBorder}`,
              }}
            >
              {t(`square.tags.${TAG_KEYS[tag]}`)}
            </Tag.CheckableTag>
          </Tooltip>
        ))}
        {isMobile && <ViewToggle view={view} onViewChange={onViewChange} isSmall />}
      </Flex>
    </Flex>
  );
}
