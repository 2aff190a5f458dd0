import { App as AntApp } from 'antd';
import type { ComponentType } from 'react';

/**
 * antd's App provider (message, notification and modal through `App.useApp()`), given only to
 * the pages that use it, so the first screen does not load those components.
 */
export function withFeedback<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  function WithFeedback(props: P) {
    return (
      <AntApp component={false}>
        <Page {...props} />
      </AntApp>
    );
  }
  WithFeedback.displayName = `WithFeedback(${Page.displayName ?? Page.name})`;
  return WithFeedback;
}
