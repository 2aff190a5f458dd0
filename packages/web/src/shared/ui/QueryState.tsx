import { Alert, Button, Skeleton } from 'antd';
import type { TFunction } from 'i18next';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';

// One way to show a query's loading, empty and error states. The error text comes from the error
// code mapping (api/errors.ts) unless a screen has its own code mapping (wallet, square).

/** What these components read of a TanStack query. */
export interface QueryView<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  isPending: boolean;
  isFetching?: boolean;
  refetch: () => unknown;
}

interface ErrorProps {
  query: Pick<QueryView<unknown>, 'error' | 'refetch' | 'isFetching'>;
  /** The text when the error has no code of its own ("Could not load the bots"). */
  failedText: string;
  /** A screen's own code mapping; by default the shared one. */
  describe?: (t: TFunction, error: unknown, fallback: string) => string;
  /** Always `failedText`, whatever the error (where the spec says only "could not load"). */
  textOnly?: boolean;
  /** Without a retry button (the query retries by itself). */
  hideRetry?: boolean;
  retryText?: string;
  style?: CSSProperties;
  'data-testid'?: string;
}

/** A failed query's error, said by its code, with a retry button. */
export function QueryErrorAlert({
  query,
  failedText,
  describe = errorMessage,
  textOnly = false,
  hideRetry = false,
  retryText,
  style,
  'data-testid': testId,
}: ErrorProps) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      style={style}
      data-testid={testId}
      title={textOnly ? failedText : describe(t, query.error, failedText)}
      action={
        hideRetry ? undefined : (
          <Button size="small" onClick={() => void query.refetch()}>
            {retryText ?? t('common.retry')}
          </Button>
        )
      }
    />
  );
}

interface StateProps<T> extends Omit<ErrorProps, 'query'> {
  query: QueryView<T>;
  /** Shown while the first answer is awaited (a skeleton by default). */
  loading?: ReactNode;
  /** Shown instead of `children` when `isEmpty` says the answer has nothing to list. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/**
 * A query's states in one place: loading, then the error (only while there is no earlier answer
 * to keep showing), the empty answer, or the answer itself.
 */
export function QueryState<T>({
  query,
  loading,
  empty,
  isEmpty,
  children,
  ...errorProps
}: StateProps<T>) {
  if (query.isError && query.data === undefined) {
    return <QueryErrorAlert query={query} {...errorProps} />;
  }
  if (query.data === undefined) return <>{loading ?? <Skeleton active />}</>;
  if (empty !== undefined && isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
