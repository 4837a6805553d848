import { useEffect, type ReactNode } from 'react';
import { Heading, Text } from '@aws-amplify/ui-react';

/** Sets the document title for a page. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · AIWork` : 'AIWork';
  }, [title]);
}

interface PageProps {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  /** Document title when it differs from the heading. */
  documentTitle?: string;
  className?: string;
}

/** Standard page frame: one h1, an optional subtitle, the content. */
export function Page({ title, subtitle, children, documentTitle, className }: PageProps) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <div className={`page${className ? ' ' + className : ''}`}>
      <header className="page__header">
        <Heading level={1} className="page__title">
          {title}
        </Heading>
        {subtitle ? <Text className="page__subtitle">{subtitle}</Text> : null}
      </header>
      {children}
    </div>
  );
}
