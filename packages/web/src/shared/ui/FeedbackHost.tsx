import { App } from 'antd';
import { useEffect } from 'react';

export type FeedbackApi = ReturnType<typeof App.useApp>;

function Bridge({ onReady }: { onReady: (api: FeedbackApi) => void }) {
  const api = App.useApp();
  useEffect(() => onReady(api), [api, onReady]);
  return null;
}

/** antd's App (the holders of its message and modal), handing its API up once mounted. */
export default function FeedbackHost({ onReady }: { onReady: (api: FeedbackApi) => void }) {
  return (
    <App component={false}>
      <Bridge onReady={onReady} />
    </App>
  );
}
