import { ERROR_CODES } from '@quantsquare/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError } from '../src/api/client';
import i18n, { changeLanguage } from '../src/i18n';
import { QueryState, type QueryView } from '../src/shared/ui/QueryState';

// The shared loading / empty / error frame, rendered to HTML (the web unit tests have no DOM).

function query(state: Partial<QueryView<number[]>>): QueryView<number[]> {
  return {
    data: undefined,
    error: null,
    isError: false,
    isPending: false,
    refetch: () => undefined,
    ...state,
  };
}

function render(view: QueryView<number[]>, extra: { textOnly?: boolean } = {}) {
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <QueryState
        query={view}
        failedText="could not load"
        empty={<p>nothing yet</p>}
        isEmpty={(rows) => rows.length === 0}
        {...extra}
      >
        {(rows) => <ul>{`${rows.length} rows`}</ul>}
      </QueryState>
    </I18nextProvider>,
  );
}

describe('QueryState', () => {
  beforeAll(async () => {
    await changeLanguage('en');
  });

  it('shows a skeleton until the first answer', () => {
    const html = render(query({ isPending: true }));
    expect(html).toContain('ant-skeleton');
    expect(html).not.toContain('rows');
  });

  it('says a failed query by its error code, with a retry button', () => {
    const error = new ApiRequestError('http', 400, {
      error: 'a server sentence',
      code: ERROR_CODES.invalidGoogleCode,
    });
    const html = render(query({ isError: true, error }));
    expect(html).toContain('ant-alert-error');
    expect(html).toContain(i18n.getFixedT('en')('errors.server.invalidGoogleCode'));
    expect(html).not.toContain('a server sentence');
    expect(html).toContain(i18n.getFixedT('en')('common.retry'));
  });

  it('falls back to the screen text for a network failure only when told to', () => {
    const error = new ApiRequestError('network', 0, null);
    expect(render(query({ isError: true, error }))).toContain(
      i18n.getFixedT('en')('errors.network'),
    );
    expect(render(query({ isError: true, error }), { textOnly: true })).toContain('could not load');
  });

  it('keeps showing an earlier answer when a refetch fails', () => {
    const html = render(query({ isError: true, error: new Error('x'), data: [1, 2] }));
    expect(html).toContain('2 rows');
    expect(html).not.toContain('ant-alert');
  });

  it('shows the empty state for an empty answer and the rows otherwise', () => {
    expect(render(query({ data: [] }))).toContain('nothing yet');
    expect(render(query({ data: [1] }))).toContain('1 rows');
  });
});
