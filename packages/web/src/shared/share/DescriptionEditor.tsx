import { SHARE_DESCRIPTION_MAX_LENGTH } from '@quantsquare/contracts';
import { Flex, Typography, theme } from 'antd';
import { type CSSProperties, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartErrorBoundary } from '../charts/ChartErrorBoundary';
import { visibleLength } from '../format/square-format';
import { Spinner } from '../ui/Spinner';

// Quill and its styles load with the editor only (not with /my/account or the square).
const LazyQuillEditor = lazy(() => import('./QuillEditor'));

interface Props {
  value: string;
  onChange: (html: string) => void;
}

/** The description's rich text editor with its 2,000-character counter (document 1 §2, §5). */
export function DescriptionEditor({ value, onChange }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const length = visibleLength(value);
  const isTooLong = length > SHARE_DESCRIPTION_MAX_LENGTH;
  const colours = {
    '--qs-editor-border': token.colorBorder,
    '--qs-editor-text': token.colorText,
    '--qs-editor-placeholder': token.colorTextPlaceholder,
    '--qs-editor-bg': token.colorBgElevated,
    // Quill's own texts (CSS content), as quoted CSS strings.
    '--qs-editor-normal': JSON.stringify(t('share.editor.quill.normal')),
    '--qs-editor-h1': JSON.stringify(t('share.editor.quill.h1')),
    '--qs-editor-h2': JSON.stringify(t('share.editor.quill.h2')),
    '--qs-editor-h3': JSON.stringify(t('share.editor.quill.h3')),
    '--qs-editor-visit': JSON.stringify(t('share.editor.quill.visit')),
    '--qs-editor-enter-link': JSON.stringify(t('share.editor.quill.enterLink')),
    '--qs-editor-edit': JSON.stringify(t('share.editor.quill.edit')),
    '--qs-editor-save': JSON.stringify(t('share.editor.quill.save')),
    '--qs-editor-remove': JSON.stringify(t('share.editor.quill.remove')),
  } as CSSProperties;
  const fallback = (
    <Flex align="center" justify="center" style={{ height: 242 }}>
      <Spinner />
    </Flex>
  );
  return (
    <Flex vertical gap={6} style={colours}>
      <ChartErrorBoundary
        fallback={<Typography.Text type="danger">{t('share.editor.editorFailed')}</Typography.Text>}
      >
        <Suspense fallback={fallback}>
          <LazyQuillEditor
            value={value}
            onChange={onChange}
            placeholder={t('share.editor.placeholder')}
          />
        </Suspense>
      </ChartErrorBoundary>
      <Flex justify="space-between" gap={8}>
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {isTooLong ? t('share.editor.tooLong', { max: SHARE_DESCRIPTION_MAX_LENGTH }) : ''}
        </Typography.Text>
        <Typography.Text
          type={isTooLong ? 'danger' : 'secondary'}
          style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}
          data-testid="description-counter"
        >
          {t('share.editor.counter', { count: length, max: SHARE_DESCRIPTION_MAX_LENGTH })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
