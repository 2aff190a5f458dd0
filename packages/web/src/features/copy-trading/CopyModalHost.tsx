import { lazy, Suspense, useEffect, useState } from 'react';
import type { CopyTarget } from './CopyModal';

// The copy modal and its texts load on the first Copy Trade click, not with the square.
const CopyModal = lazy(() => import('./CopyModal').then((m) => ({ default: m.CopyModal })));

export type { CopyTarget };

/** Renders the copy modal once it has been asked for (it stays mounted to animate closing). */
export function CopyModalHost({
  target,
  onClose,
}: {
  target: CopyTarget | null;
  onClose: () => void;
}) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (target) setWanted(true);
  }, [target]);
  if (!wanted && !target) return null;
  return (
    <Suspense fallback={null}>
      <CopyModal target={target} onClose={onClose} />
    </Suspense>
  );
}
