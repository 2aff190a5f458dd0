import { EllipsisOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { pageItems } from '../../shared/format/square-format';

interface Props {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  isCompact: boolean;
}

/** Paging with up to 7 page numbers and ellipses (document 2 §9). */
export function SquarePager({ page, totalPages, onChange, isCompact }: Props) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  const size = isCompact ? 'small' : 'middle';
  return (
    <nav aria-label={t('square.pagination.label')} data-testid="square-pager">
      <Flex gap={isCompact ? 4 : 6} justify="center" wrap>
        <Button
          size={size}
          icon={<LeftOutlined />}
          disabled={page <= 1}
          onClick={() => onChange(page - 1)}
          aria-label={t('square.pagination.previous')}
        />
        {pageItems(page, totalPages).map((item) =>
          typeof item === 'number' ? (
            <Button
              key={item}
              size={size}
              type={item === page ? 'primary' : 'default'}
              aria-current={item === page ? 'page' : undefined}
              aria-label={t('square.pagination.page', { page: item })}
              onClick={() => item !== page && onChange(item)}
              data-testid="square-page-number"
              style={{ minWidth: isCompact ? 28 : 32, paddingInline: 4 }}
            >
              {item}
            </Button>
          ) : (
            <Flex
              key={item}
              align="center"
              justify="center"
              style={{ width: isCompact ? 20 : 24, opacity: 0.6 }}
              aria-label={t('square.pagination.morePages')}
              role="img"
            >
              <EllipsisOutlined />
            </Flex>
          ),
        )}
        <Button
          size={size}
          icon={<RightOutlined />}
          disabled={page >= totalPages}
          onClick={() => onChange(page + 1)}
          aria-label={t('square.pagination.next')}
        />
      </Flex>
    </nav>
  );
}
