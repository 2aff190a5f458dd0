import { Alert } from 'antd';
import { hideShellNotice, type ShellNotice } from './shell-notice';

/** The shell's notice as an alert above the page (loaded only when there is one). */
export default function ShellNoticeView({ notice }: { notice: ShellNotice }) {
  return (
    <Alert
      type={notice.type}
      showIcon
      closable={{ onClose: () => hideShellNotice(notice.id) }}
      title={notice.title}
      description={notice.description}
      style={{ marginBottom: 16 }}
      data-testid={notice.testId}
    />
  );
}
