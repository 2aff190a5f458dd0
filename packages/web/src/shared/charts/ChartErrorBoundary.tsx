import { Component, type ReactNode } from 'react';

interface Props {
  fallback: ReactNode;
  children: ReactNode;
}

interface State {
  hasFailed: boolean;
}

/**
 * Keeps a chart failure (the chart module failing to load, or the library throwing on odd data)
 * inside the chart's card instead of breaking the page. Give it a `key` to retry on new data.
 */
export class ChartErrorBoundary extends Component<Props, State> {
  override state: State = { hasFailed: false };

  static getDerivedStateFromError(): State {
    return { hasFailed: true };
  }

  override render() {
    return this.state.hasFailed ? this.props.fallback : this.props.children;
  }
}
