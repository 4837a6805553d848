import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Heading, Text } from '@aws-amplify/ui-react';
import { useDocumentTitle } from '../../../components/page';
import { useAuth } from '../../../lib/use-auth';
import { FEATURES } from '../features';
import { isTourSuppressed } from '../tour/tour-state';
import { warmUpOnce } from '../warm-up';

// The tour is for visitors only; its code loads only when it will show.
const TourOverlay = lazy(() => import('../tour/tour-overlay'));

export default function HomePage() {
  useDocumentTitle('');
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const [tourWanted, setTourWanted] = useState(() => !isTourSuppressed());
  const hideTour = useCallback(() => setTourWanted(false), []);

  useEffect(() => warmUpOnce(), []);

  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <p className="hero__eyebrow">Prompts · MCP servers · Multi-model chat</p>
        <Heading level={1} id="hero-title" className="hero__title">
          Your AI workbench, all in one place
        </Heading>
        <Text className="hero__subtitle">
          Buy proven prompts, connect to model servers and chat with OpenAI, Anthropic, Google and Meta models side by side.
        </Text>
        <div className="button-row hero__actions">
          <Link to="/marketplace" className="button-link button-link--primary button-link--large">
            Explore Prompts
          </Link>
          {signedIn ? (
            <Link to="/dashboard" className="button-link button-link--large">
              Go to Dashboard
            </Link>
          ) : (
            <Link to="/register" className="button-link button-link--large">
              Get Started Free
            </Link>
          )}
        </div>
      </section>

      <section className="feature-grid" aria-label="What you can do">
        {FEATURES.map((f) => (
          <Link key={f.id} to={f.to} className="feature-block" data-feature={f.id}>
            <span className="feature-block__icon" aria-hidden="true">
              {f.icon}
            </span>
            <Heading level={2} className="feature-block__title">
              {f.title}
            </Heading>
            <Text className="feature-block__text">{f.text}</Text>
            <span className="feature-block__more" aria-hidden="true">
              {f.cta} →
            </span>
          </Link>
        ))}
      </section>

      {!signedIn ? (
        <section className="cta" aria-labelledby="cta-title">
          <Heading level={2} id="cta-title" className="cta__title">
            Start with 5 free prompts
          </Heading>
          <Text className="cta__text">Create a free account to unlock prompts, connect to servers and start chatting.</Text>
          <Link to="/register" className="button-link button-link--primary button-link--large">
            Create your free account
          </Link>
        </section>
      ) : null}

      {status === 'unauthenticated' && tourWanted ? (
        <Suspense fallback={null}>
          <TourOverlay onFinished={hideTour} />
        </Suspense>
      ) : null}
    </div>
  );
}
