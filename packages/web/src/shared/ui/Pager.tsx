import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Text } from './ui';

/**
 * Previous and next page with "page 2 of 7", and the total when given: the paging of a light
 * list (antd's Pagination brings its size changer and quick jumper along). Nothing shows for a
 * single page.
 */
export function Pager({
  page,
  pageSize,
  total,
  totalText,
  onChange,
  'data-testid': testId,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** "37 entries" */
  totalText?: string;
  onChange: (page: number) => void;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav
      data-testid={testId}
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'flex-end',
        gap: 8,
        marginTop: 12,
      }}
    >
      {totalText && <Text tone="secondary">{totalText}</Text>}
      <Button
        size="small"
        icon={<LeftOutlined />}
        aria-label={t('common.pager.previous')}
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
        data-testid={testId && `${testId}-previous`}
      />
      <Text data-testid={testId && `${testId}-page`}>
        {t('common.pager.page', { page, pages })}
      </Text>
      <Button
        size="small"
        icon={<RightOutlined />}
        aria-label={t('common.pager.next')}
        disabled={page >= pages}
        onClick={() => onChange(page + 1)}
        data-testid={testId && `${testId}-next`}
      />
    </nav>
  );
}
