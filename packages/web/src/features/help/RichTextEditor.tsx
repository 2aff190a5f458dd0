import {
  HELP_IMAGE_MAX_BYTES,
  HELP_IMAGE_MIME_TYPES,
  RICH_TEXT_LINK_SCHEMES,
  UPLOADED_IMAGE_URL,
} from '@quantsquare/contracts';
import { theme } from 'antd';
import Delta from 'quill-delta';
import { type CSSProperties, useMemo, useRef } from 'react';
import ReactQuill, { Quill } from 'react-quill-new';
import 'react-quill-new/dist/quill.snow.css';

// The announcement editor (Quill 2, loaded only when staff open the publish dialog): the spec's
// default toolbar (headers 1–3, bold, italic, underline, link, ordered and bullet lists, clear
// formatting) plus image upload. Images always go to the server: picked, pasted or dropped
// files are uploaded, and pasted images from elsewhere are dropped instead of being inlined.

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

interface LinkFormat {
  sanitize(url: string): string;
}

// Links keep only the editor's schemes; an address typed without one is taken as https.
const Link = Quill.import('formats/link') as unknown as LinkFormat;
Link.sanitize = (url: string) => {
  const trimmed = url.trim();
  const withScheme = SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`;
  const scheme = SCHEME.exec(withScheme)?.[1]?.toLowerCase() ?? '';
  return (RICH_TEXT_LINK_SCHEMES as readonly string[]).includes(scheme)
    ? withScheme
    : 'about:blank';
};

const TOOLBAR = [
  [{ header: [1, 2, 3, false] }],
  ['bold', 'italic', 'underline'],
  ['link'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['image'],
  ['clean'],
];
const FORMATS = ['header', 'bold', 'italic', 'underline', 'link', 'list', 'indent', 'image'];

/** Why a file was not uploaded, for the caller to say. */
export type ImageRejection = 'type' | 'size';

export interface RichTextEditorProps {
  value: string;
  onChange: (html: string) => void;
  /** Uploads an image and answers its URL (undefined when the upload failed and was reported). */
  onUpload: (file: File) => Promise<string | undefined>;
  onReject: (reason: ImageRejection) => void;
  placeholder?: string;
  hasError?: boolean;
  /** The toolbar's and link tooltip's texts in the reader's language. */
  labels: EditorLabels;
}

export interface EditorLabels {
  normal: string;
  heading1: string;
  heading2: string;
  heading3: string;
  visitUrl: string;
  enterLink: string;
  edit: string;
  remove: string;
  save: string;
}

export default function RichTextEditor(props: RichTextEditorProps) {
  const { token } = theme.useToken();
  const editorRef = useRef<ReactQuill>(null);
  const handlers = useRef(props);
  handlers.current = props;

  const modules = useMemo(() => {
    /** Uploads the accepted files one by one and inserts each where the cursor was. */
    const insertImages = async (files: readonly File[], at?: number) => {
      const quill = editorRef.current?.getEditor();
      if (!quill) return;
      let index = at ?? quill.getSelection(true)?.index ?? quill.getLength();
      for (const file of files) {
        if (!(HELP_IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
          handlers.current.onReject('type');
          continue;
        }
        if (file.size > HELP_IMAGE_MAX_BYTES) {
          handlers.current.onReject('size');
          continue;
        }
        const url = await handlers.current.onUpload(file);
        if (!url) continue;
        quill.insertEmbed(index, 'image', url, 'user');
        index += 1;
        quill.setSelection(index, 0, 'user');
      }
    };
    return {
      toolbar: {
        container: TOOLBAR,
        handlers: {
          image: () => {
            const input = document.createElement('input');
            input.type = 'file';
            input.accept = HELP_IMAGE_MIME_TYPES.join(', ');
            input.onchange = () => {
              void insertImages([...(input.files ?? [])]);
            };
            input.click();
          },
        },
      },
      uploader: {
        // Every type is let through here so that a refused one is reported, not ignored.
        mimetypes: [...HELP_IMAGE_MIME_TYPES, 'image/webp', 'image/svg+xml', 'image/tiff'],
        handler: (range: { index: number }, files: File[]) => {
          void insertImages(files, range.index);
        },
      },
      clipboard: {
        matchers: [
          [
            'img',
            (node: Node, delta: Delta) =>
              node instanceof HTMLImageElement &&
              UPLOADED_IMAGE_URL.test(node.getAttribute('src') ?? '')
                ? delta
                : new Delta(),
          ],
        ],
      },
    };
  }, []);

  // Quill's snow theme writes its labels in English CSS; they are replaced through variables.
  const label = (key: keyof EditorLabels) => JSON.stringify(props.labels[key]);
  const style = {
    '--qs-ql-normal': label('normal'),
    '--qs-ql-h1': label('heading1'),
    '--qs-ql-h2': label('heading2'),
    '--qs-ql-h3': label('heading3'),
    '--qs-ql-visit': label('visitUrl'),
    '--qs-ql-enter-link': label('enterLink'),
    '--qs-ql-edit': label('edit'),
    '--qs-ql-remove': label('remove'),
    '--qs-ql-save': label('save'),
    '--qs-editor-border': props.hasError ? token.colorError : token.colorBorder,
    '--qs-editor-text': token.colorText,
    '--qs-editor-placeholder': token.colorTextPlaceholder,
    '--qs-editor-icon': token.colorTextSecondary,
    '--qs-editor-active': token.colorPrimary,
    '--qs-editor-popup': token.colorBgElevated,
    '--qs-editor-error': token.colorError,
  } as CSSProperties;

  return (
    <div className="qs-editor" style={style} data-testid="announcement-editor">
      <ReactQuill
        ref={editorRef}
        theme="snow"
        value={props.value}
        onChange={(html) => props.onChange(html)}
        modules={modules}
        formats={FORMATS}
        placeholder={props.placeholder}
      />
    </div>
  );
}
