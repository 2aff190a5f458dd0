import { EXCHANGE_ERROR_KINDS, type ExchangeErrorKindCode } from '@quantsquare/contracts';
import { Button, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function isExchangeErrorKind(kind: unknown): kind is ExchangeErrorKindCode {
  return typeof kind === 'string' && (EXCHANGE_ERROR_KINDS as readonly string[]).includes(kind);
}

/** The text of an exchange failure's kind in the reader's language. */
export function useExchangeErrorKindText() {
  const { t } = useTranslation();
  return (kind: unknown): string =>
    isExchangeErrorKind(kind) ? t(`apis.errorKinds.${kind}`) : t('apis.errorUnknownKind');
}

interface Props {
  kind: unknown;
  /** The server's English text with the exchange's own detail, shown on demand. */
  detail: string | null | undefined;
  /** Show only the details toggle (the kind's text is already shown, e.g. as a title). */
  detailsOnly?: boolean;
}

/**
 * An exchange failure: its kind's text, and the exchange's own words behind a Details toggle,
 * so the reader sees their language first and the raw detail only when they ask for it.
 */
export function ExchangeErrorText({ kind, detail, detailsOnly }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const kindText = useExchangeErrorKindText();
  const [isOpen, setOpen] = useState(false);
  const hasDetail = typeof detail === 'string' && detail.trim() !== '';
  return (
    <span data-testid="exchange-error" data-kind={isExchangeErrorKind(kind) ? kind : 'unknown'}>
      {!detailsOnly && <span data-testid="exchange-error-kind">{kindText(kind)}</span>}
      {hasDetail && (
        <>
          <Button
            type="link"
            size="small"
            onClick={() => setOpen((open) => !open)}
            aria-expanded={isOpen}
            data-testid="exchange-error-details-toggle"
            style={{ paddingInline: detailsOnly ? 0 : 4, height: 'auto' }}
          >
            {t(isOpen ? 'apis.hideDetails' : 'apis.showDetails')}
          </Button>
          {isOpen && (
            <code
              data-testid="exchange-error-details"
              style={{
                display: 'block',
                marginTop: 4,
                padding: '4px 8px',
                borderRadius: token.borderRadiusSM,
                background: token.colorFillTertiary,
                color: token.colorTextSecondary,
                fontSize: 12,
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
              }}
            >
              {detail}
            </code>
          )}
        </>
      )}
    </span>
  );
}
