import type { ReactNode } from 'react';
import { Heading } from '@aws-amplify/ui-react';

/** A section's h2 (`id` names the section) and its main actions (New …, Sync …). */
export function SectionHeader({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <div className="admin-section__header">
      <Heading level={2} id={id} className="section-title admin-section__title">
        {title}
      </Heading>
      {children ? <div className="admin-section__actions">{children}</div> : null}
    </div>
  );
}
