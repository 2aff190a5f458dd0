import {
  ANNOUNCEMENT_SUMMARY_MAX_LENGTH,
  ANNOUNCEMENT_TITLE_MAX_LENGTH,
  ANNOUNCEMENT_TYPES,
  type Announcement,
  type AnnouncementType,
  ERROR_CODES,
  FIELD_ERROR_CODES,
} from '@quantsquare/contracts';
import { Alert, App, Button, Flex, Form, type FormInstance, Input, Modal, Radio } from 'antd';
import { Component, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorBody } from '../../api/errors';
import { fieldErrors } from '../../api/field-errors';
import { useCreateAnnouncement, useUpdateAnnouncement, useUploadHelpImage } from '../../api/help';
import { Spinner } from '../../shared/ui/Spinner';
import type { ImageRejection } from './RichTextEditor';

// Quill and its styles load only when this dialog opens.
const RichTextEditor = lazy(() => import('./RichTextEditor'));

interface FormValues {
  title: string;
  summary: string;
  type: AnnouncementType;
  content: string;
}

/** Whether the editor's HTML shows anything: text or an image. */
export function hasVisibleContent(html: string): boolean {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return (body.textContent ?? '').trim() !== '' || body.querySelector('img') !== null;
}

class EditorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }> {
  override state = { hasFailed: false };
  static getDerivedStateFromError() {
    return { hasFailed: true };
  }
  override render() {
    return this.state.hasFailed ? this.props.fallback : this.props.children;
  }
}

interface ContentFieldProps {
  value?: string;
  onChange?: (html: string) => void;
}

/** The editor as a form control, with uploads reported in the page's language. */
function ContentField({ value = '', onChange }: ContentFieldProps) {
  const { t } = useTranslation();
  const hasError = Form.Item.useStatus().status === 'error';
  const { message } = App.useApp();
  const upload = useUploadHelpImage();
  const onUpload = async (file: File) => {
    const hide = message.loading(t('helpCenter.announcements.form.imageUploading'), 0);
    try {
      return (await upload.mutateAsync(file)).url;
    } catch (error) {
      const body = apiErrorBody(error);
      void message.error(
        body?.field_codes?.image?.[0] === FIELD_ERROR_CODES.unsupportedFormat
          ? t('helpCenter.announcements.form.imageType')
          : body?.code === ERROR_CODES.payloadTooLarge
            ? t('helpCenter.announcements.form.imageTooLarge')
            : t('helpCenter.announcements.form.imageFailed'),
      );
      return undefined;
    } finally {
      hide();
    }
  };
  const onReject = (reason: ImageRejection) =>
    void message.error(
      t(
        reason === 'size'
          ? 'helpCenter.announcements.form.imageTooLarge'
          : 'helpCenter.announcements.form.imageType',
      ),
    );
  return (
    <EditorBoundary
      fallback={
        <Alert type="error" showIcon title={t('helpCenter.announcements.form.editorFailed')} />
      }
    >
      <Suspense
        fallback={
          <Flex align="center" gap={8} style={{ minHeight: 120 }}>
            <Spinner size="small" />
            {t('helpCenter.announcements.form.editorLoading')}
          </Flex>
        }
      >
        <RichTextEditor
          value={value}
          onChange={(html) => onChange?.(html)}
          onUpload={onUpload}
          onReject={onReject}
          hasError={hasError}
          labels={t('helpCenter.announcements.form.editor', { returnObjects: true })}
        />
      </Suspense>
    </EditorBoundary>
  );
}

interface Props {
  open: boolean;
  /** The announcement being edited; null publishes a new one. */
  editing: Announcement | null;
  onClose: () => void;
  onSaved?: (announcement: Announcement) => void;
}

/** The title, the summary and the type. */
function TextFields() {
  const { t } = useTranslation();
  const tooLong = (max: number) => ({
    max,
    message: t('helpCenter.announcements.form.tooLong', { max }),
  });
  return (
    <>
      <Form.Item
        name="title"
        label={t('helpCenter.announcements.form.title')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('helpCenter.announcements.form.titleRequired'),
          },
          tooLong(ANNOUNCEMENT_TITLE_MAX_LENGTH),
        ]}
      >
        <Input
          placeholder={t('helpCenter.announcements.form.titlePlaceholder')}
          maxLength={ANNOUNCEMENT_TITLE_MAX_LENGTH}
          showCount
          data-testid="announcement-title"
        />
      </Form.Item>
      <Form.Item
        name="summary"
        label={t('helpCenter.announcements.form.summary')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('helpCenter.announcements.form.summaryRequired'),
          },
          tooLong(ANNOUNCEMENT_SUMMARY_MAX_LENGTH),
        ]}
      >
        <Input.TextArea
          placeholder={t('helpCenter.announcements.form.summaryPlaceholder')}
          maxLength={ANNOUNCEMENT_SUMMARY_MAX_LENGTH}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
          data-testid="announcement-summary"
        />
      </Form.Item>
      <Form.Item name="type" label={t('helpCenter.announcements.form.type')}>
        <Radio.Group
          optionType="button"
          options={ANNOUNCEMENT_TYPES.map((type) => ({
            value: type,
            label: t(`helpCenter.announcements.types.${type}`),
          }))}
          data-testid="announcement-type"
        />
      </Form.Item>
    </>
  );
}

/**
 * Publishing or saving: on success the dialog closes; a refusal's field errors go under their
 * fields (a missing one in the form's own words), and one message says it failed.
 */
function useAnnouncementSubmit(
  form: FormInstance<FormValues>,
  editing: Announcement | null,
  close: () => void,
  onSaved: Props['onSaved'],
  create: ReturnType<typeof useCreateAnnouncement>,
  update: ReturnType<typeof useUpdateAnnouncement>,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();

  /** A server field error in the form's own words where it has them (a missing field). */
  const serverText = (name: keyof FormValues, code: string | undefined, text: string) => {
    if (code !== FIELD_ERROR_CODES.required) return text;
    if (name === 'title') return t('helpCenter.announcements.form.titleRequired');
    if (name === 'summary') return t('helpCenter.announcements.form.summaryRequired');
    if (name === 'content') return t('helpCenter.announcements.form.contentRequired');
    return text;
  };

  const submit = (values: FormValues) => {
    const body = {
      title: values.title.trim(),
      summary: values.summary.trim(),
      type: values.type,
      content: values.content,
    };
    const onError = (error: unknown) => {
      const codes = apiErrorBody(error)?.field_codes ?? {};
      const fields = Object.entries(fieldErrors(t, error)).filter(([name]) =>
        ['title', 'summary', 'type', 'content'].includes(name),
      );
      if (fields.length > 0) {
        form.setFields(
          fields.map(([name, text]) => ({
            name: name as keyof FormValues,
            errors: [serverText(name as keyof FormValues, codes[name]?.[0], text)],
          })),
        );
      }
      void message.error(
        t(
          editing
            ? 'helpCenter.announcements.form.saveFailed'
            : 'helpCenter.announcements.form.publishFailed',
        ),
      );
    };
    const onSuccess = (saved: Announcement) => {
      void message.success(
        t(
          editing
            ? 'helpCenter.announcements.form.saved'
            : 'helpCenter.announcements.form.published',
        ),
      );
      close();
      onSaved?.(saved);
    };
    if (editing) update.mutate({ id: editing.id, body }, { onSuccess, onError });
    else create.mutate(body, { onSuccess, onError });
  };

  return submit;
}

/** Staff's publish / edit dialog: title, summary, type and rich content (document 2 §2, §5, §8). */
export function AnnouncementFormModal({ open, editing, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateAnnouncement();
  const update = useUpdateAnnouncement();
  const isSaving = create.isPending || update.isPending;

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      editing
        ? {
            title: editing.title,
            summary: editing.summary,
            type: editing.type,
            content: editing.content,
          }
        : { title: '', summary: '', type: 'normal', content: '' },
    );
  }, [open, editing, form]);

  const close = () => {
    form.resetFields();
    create.reset();
    update.reset();
    onClose();
  };
  const askClose = () => {
    if (!form.isFieldsTouched() || isSaving) {
      if (!isSaving) close();
      return;
    }
    modal.confirm({
      title: t('helpCenter.announcements.form.discardTitle'),
      content: t('helpCenter.announcements.form.discardBody'),
      okText: t('helpCenter.announcements.form.discard'),
      cancelText: t('helpCenter.announcements.form.keepEditing'),
      okButtonProps: { danger: true, autoInsertSpace: false },
      cancelButtonProps: { autoInsertSpace: false },
      onOk: close,
    });
  };

  const submit = useAnnouncementSubmit(form, editing, close, onSaved, create, update);

  return (
    <Modal
      open={open}
      title={t(
        editing
          ? 'helpCenter.announcements.form.editTitle'
          : 'helpCenter.announcements.form.createTitle',
      )}
      onCancel={askClose}
      maskClosable={false}
      destroyOnHidden
      width={820}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={askClose} disabled={isSaving}>
            {t('helpCenter.announcements.form.cancel')}
          </Button>
          <Button
            type="primary"
            loading={isSaving}
            onClick={() => form.submit()}
            data-testid="announcement-submit"
          >
            {t(
              editing
                ? 'helpCenter.announcements.form.save'
                : 'helpCenter.announcements.form.submit',
            )}
          </Button>
        </Flex>
      }
      data-testid="announcement-form"
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        requiredMark
        onFinish={submit}
        onFinishFailed={({ errorFields }) => {
          // The spec's alert for empty content, besides the field's own message.
          if (errorFields.some((field) => field.name[0] === 'content')) {
            void message.warning(t('helpCenter.announcements.form.contentRequired'));
          }
        }}
        disabled={isSaving}
        style={{ marginTop: 12 }}
      >
        <TextFields />
        <Form.Item
          name="content"
          label={t('helpCenter.announcements.form.content')}
          required
          rules={[
            {
              validator: (_rule, value: unknown) =>
                typeof value === 'string' && hasVisibleContent(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('helpCenter.announcements.form.contentRequired'))),
            },
          ]}
        >
          <ContentField />
        </Form.Item>
      </Form>
    </Modal>
  );
}
