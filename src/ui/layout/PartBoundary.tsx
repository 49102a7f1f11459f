import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What the part is, for the message ("This simulation", "This page"). */
  what: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Keeps a failure to the part of the page it happened in (a lesson's block, a page): the part
 * says what broke and offers to try again, and the rest of the page goes on working. Without
 * it, one exception while rendering unmounts the whole app and leaves a blank page.
 */
export class PartBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.what} stopped working:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="notice notice-warning">
        <p>
          <strong>{this.props.what} stopped working</strong> ({error.message}). The rest of the page still works. Try it
          again, or reload the page; if it keeps failing, this browser may lack something it needs: a current Chrome,
          Firefox, Safari or Edge runs it.
        </p>
        <button type="button" className="button button-secondary" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
