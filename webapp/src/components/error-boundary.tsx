import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Heading, Text } from '@aws-amplify/ui-react';

interface State {
  error: Error | null;
}

/** Catches render errors and failed route-chunk loads (e.g. after a deploy). */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unhandled UI error', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page page--centered" role="alert">
        <Heading level={1}>Something went wrong</Heading>
        <Text>This page could not be shown. Reloading usually fixes it.</Text>
        <Button variation="primary" onClick={() => window.location.reload()}>
          Reload page
        </Button>
      </div>
    );
  }
}
