import { cloneElement, lazy, type ReactElement, type ReactNode, Suspense, useState } from 'react';

// antd's Tooltip (placement, arrow and motion code) is fetched when the pointer first reaches the
// element, not with the screen that shows it: the first screen of /dashboard has no tooltip open.
const Tooltip = lazy(() => import('antd/es/tooltip'));

interface Props {
  title: ReactNode;
  /** One element taking pointer handlers (antd's Tooltip wraps it as it is). */
  children: ReactElement<{ onPointerEnter?: () => void }>;
}

/**
 * A hover hint for an element whose name is said otherwise too (its text or `aria-label`):
 * antd's Tooltip from the first pointer contact on, shown open at once for that contact.
 */
export function HintTooltip({ title, children }: Props) {
  const [isArmed, setIsArmed] = useState(false);
  if (!isArmed) return cloneElement(children, { onPointerEnter: () => setIsArmed(true) });
  return (
    <Suspense fallback={children}>
      <Tooltip title={title} defaultOpen>
        {children}
      </Tooltip>
    </Suspense>
  );
}
