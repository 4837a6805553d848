// /creators/{username}: a creator's public page (no sign-in needed): their
// name, bio and country, and their published prompts as the marketplace's
// cards, each opening the same prompt page (buy and free use work there as
// on /marketplace). An unknown or suspended creator is "Creator not found.".

import { Link, useLocation } from 'react-router';
import { Alert, Button, Text } from '@aws-amplify/ui-react';
import { ListingCatalogue, ListingResults } from '../../../components/listing/listing';
import { Page } from '../../../components/page';
import { ApiError, errorMessage } from '../../../lib/api-client';
import type { Prompt } from '../../../lib/api/types';
import { useCreatorProfile } from '../api/use-creator-profile';
import { fetchPromptDetail } from '../api/use-prompt-detail';
import { countLine } from '../count-line';
import { usePromptActions } from '../use-prompt-actions';
import { usePromptEntries } from '../use-prompt-entries';
import { PromptCard, PromptCardSkeleton } from './prompt-card';
import { PromptDialog, usePromptSelection } from './prompt-dialog';
import './marketplace.css';

export const CREATOR_NOT_FOUND = 'Creator not found.';
const BASE = '/creators/';

/** The username of a /creators/{username} address; null when the path names none. */
export function usernameFromPath(pathname: string): string | null {
  if (!pathname.startsWith(BASE)) return null;
  const rest = pathname.slice(BASE.length).replace(/\/+$/, '');
  if (!rest || rest.includes('/')) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}

let regionNames: Intl.DisplayNames | null | undefined;

/** 'DE' → 'Germany'; the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  if (!code) return '';
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regionNames = null;
    }
  }
  try {
    return regionNames?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

export default function CreatorPage() {
  const { pathname } = useLocation();
  const username = usernameFromPath(pathname);
  const { status, signedIn, remaining, describe } = usePromptEntries();
  const creator = useCreatorProfile(status === 'loading' ? null : username);
  const actions = usePromptActions(creator.handle);
  const entries = (creator.profile?.prompts ?? []).map(describe);
  const selection = usePromptSelection(entries, describe);
  // The page's cards carry no content: an owner's Use in Chat reads it first.
  const useInChat = async (p: Prompt) => {
    if (typeof p.content === 'string' && p.content) return actions.openInChat(p);
    const content = await fetchPromptDetail(String(p.id)).then(
      (d) => d?.content,
      () => undefined,
    );
    actions.openInChat({ ...p, content });
  };

  const notFound = username === null || (creator.error instanceof ApiError && creator.error.status === 404);
  if (notFound) {
    return (
      <Page title={CREATOR_NOT_FOUND} className="creator-page page--centered">
        <Text>There is no creator at this address, or their page is not available now.</Text>
        <Link to="/marketplace" className="button-link button-link--primary">
          Back to the marketplace
        </Link>
      </Page>
    );
  }

  const profile = creator.profile;
  const failed = creator.error !== undefined && !profile;
  return (
    <Page title={profile?.display_name ?? (failed ? 'Creator' : 'Loading creator…')} className="creator-page marketplace">
      {profile ? (
        <>
          {profile.bio ? <p className="creator-page__bio">{profile.bio}</p> : null}
          {profile.country ? <p className="creator-page__country">{countryName(profile.country)}</p> : null}
        </>
      ) : null}

      {failed ? (
        <Alert variation="error" heading="Could not load this creator" className="listing-error">
          <span>{errorMessage(creator.error, 'Please check your connection and try again.')}</span>{' '}
          <Button size="small" onClick={creator.retry}>
            Retry
          </Button>
        </Alert>
      ) : (
        <ListingCatalogue heading="Prompts">
          <ListingResults
            failure={null}
            loading={!profile}
            loadingLabel="Loading prompts"
            skeleton={<PromptCardSkeleton />}
            countText={countLine(entries.length, true)}
            countTestId="prompt-count"
            empty={entries.length === 0 ? { title: 'No prompts yet', hint: 'This creator has no prompts on the marketplace yet.', headingLevel: 3 } : null}
            busy={false}
            cardMinWidth={300}
          >
            {entries.map((e) => (
              <PromptCard
                key={String(e.prompt.id)}
                prompt={e.prompt}
                access={e.access}
                state={e.state}
                ratingBlockedReason={e.ratingBlocked}
                pending={actions.pending}
                onView={selection.open}
                onUseInChat={(p) => void useInChat(p)}
                onUseFree={(p) => void actions.claimFree(p)}
                onPurchase={(p) => void actions.purchase(p)}
                onRate={(p, n) => void actions.rate(p, n, e.access)}
              />
            ))}
          </ListingResults>
        </ListingCatalogue>
      )}

      {selection.selected ? (
        <PromptDialog selected={selection.selected} signedIn={signedIn} remaining={remaining} actions={actions} onClose={selection.close} />
      ) : null}
    </Page>
  );
}
