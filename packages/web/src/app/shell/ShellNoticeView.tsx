import { Alert } from 'antd';
import { useEffect } from 'react';
import { hideShellNotice, type ShellNotice } from './shell-notice';

/**
 * The shell's notice as an alert above the page (loaded only when there is one). Its time runs
 * from when it is on screen, not from when it was asked for.
 */
export default function ShellNoticeView({ notice }: { notice: ShellNotice }) {
  useEffect(() => {
    const timer = setTimeout(() => hideShellNotice(notice.id), notice.durationMs);
    return () => clearTimeout(timer);
  }, [notice]);
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
