import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

interface State {
  error: Error | null;
}

// Keeps a failed chunk (or any render error) from leaving a blank page.
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('route failed', error, info.componentStack);
  }

  render(): ReactNode {
    if (!this.state.error) return this.props.children;
    const chunk = this.state.error.name === 'ChunkLoadError';
    return (
      <section className="panel" role="alert">
        <h1>{chunk ? 'This page could not be loaded' : 'Something went wrong'}</h1>
        <p>{chunk ? 'Check your connection, then reload the page.' : this.state.error.message}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </section>
    );
  }
}
