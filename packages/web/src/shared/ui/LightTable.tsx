import { theme } from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import { Spinner } from './Spinner';
import { Note } from './ui';

// A plain table in the look of antd's small Table, for the dashboard: antd's Table brings its
// sorting, filtering, selection and virtual list along (about 70 KB gzip with its pagination),
// and /dashboard has a 300 KB budget. Paging is the Pager's.

export interface LightColumn<T> {
  readonly key: string;
  readonly title: ReactNode;
  readonly width?: number;
  readonly align?: 'left' | 'right';
  readonly render: (row: T) => ReactNode;
}

interface LightTableProps<T> {
  readonly columns: readonly LightColumn<T>[];
  readonly rows: readonly T[];
  readonly rowKey: (row: T) => string | number;
  /** Attributes of each row's `<tr>` (test ids, data attributes). */
  readonly rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement>;
  /** The first load: a spinner where the rows will be. */
  readonly isLoading?: boolean;
  readonly emptyText: string;
  readonly 'data-testid'?: string;
}

export function LightTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  isLoading = false,
  emptyText,
  'data-testid': testId,
}: LightTableProps<T>) {
  const { token } = theme.useToken();
  const cell = {
    padding: '8px 8px',
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
    verticalAlign: 'top',
  } as const;
  const whole = (content: ReactNode) => (
    <tr>
      <td colSpan={columns.length} style={cell}>
        {content}
      </td>
    </tr>
  );
  return (
    <div style={{ overflowX: 'auto' }} data-testid={testId}>
      <table
        style={{
          width: '100%',
          borderCollapse: 'collapse',
          tableLayout: 'fixed',
          fontSize: token.fontSize,
          color: token.colorText,
        }}
      >
        <colgroup>
          {columns.map((column) => (
            <col key={column.key} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                style={{
                  ...cell,
                  textAlign: column.align ?? 'left',
                  fontWeight: 600,
                  background: token.colorFillAlter,
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
              >
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {isLoading && rows.length === 0
            ? whole(
                <div style={{ display: 'flex', justifyContent: 'center', padding: 16 }}>
                  <Spinner />
                </div>,
              )
            : rows.length === 0
              ? whole(<Note>{emptyText}</Note>)
              : rows.map((row) => (
                  <tr key={rowKey(row)} {...rowProps?.(row)}>
                    {columns.map((column) => (
                      <td key={column.key} style={{ ...cell, textAlign: column.align ?? 'left' }}>
                        {column.render(row)}
                      </td>
                    ))}
                  </tr>
                ))}
        </tbody>
      </table>
    </div>
  );
}
