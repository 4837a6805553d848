import type { ReactNode } from 'react';
import { Card, Heading, Text } from '@aws-amplify/ui-react';
import { useDocumentTitle } from '../../../components/page';

export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="auth-page">
      <Card variation="elevated" className="auth-card">
        <Heading level={1} className="auth-card__title">
          {title}
        </Heading>
        {subtitle ? <Text className="auth-card__subtitle">{subtitle}</Text> : null}
        {children}
        {footer ? <div className="auth-card__footer">{footer}</div> : null}
      </Card>
    </div>
  );
}
