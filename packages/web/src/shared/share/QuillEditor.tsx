import 'react-quill-new/dist/quill.snow.css';
import ReactQuill from 'react-quill-new';

// The description editor (document 1 §2: a rich text editor with a basic toolbar). This module
// and Quill load only when the editor opens.

// Links are limited to the schemes the server keeps (http, https, mailto, tel).
const Link = ReactQuill.Quill.import('formats/link') as { PROTOCOL_WHITELIST: string[] };
Link.PROTOCOL_WHITELIST = ['http', 'https', 'mailto', 'tel'];

/** Headers 1–3, bold, italic, underline, link, ordered and bullet lists, clear formatting. */
const MODULES = {
  toolbar: [
    [{ header: [1, 2, 3, false] }],
    ['bold', 'italic', 'underline'],
    ['link'],
    [{ list: 'ordered' }, { list: 'bullet' }],
    ['clean'],
  ],
};
const FORMATS = ['header', 'bold', 'italic', 'underline', 'link', 'list'];

export interface QuillEditorProps {
  value: string;
  onChange: (html: string) => void;
  placeholder: string;
}

export default function QuillEditor({ value, onChange, placeholder }: QuillEditorProps) {
  return (
    <div className="qs-editor" data-testid="description-editor">
      <ReactQuill
        theme="snow"
        value={value}
        onChange={(html) => onChange(html)}
        modules={MODULES}
        formats={FORMATS}
        placeholder={placeholder}
        // Quill's "semantic" HTML turns every space into &nbsp; (text would no longer wrap);
        // its own markup keeps plain spaces, and the server's allowlist knows that markup.
        useSemanticHTML={false}
      />
    </div>
  );
}
