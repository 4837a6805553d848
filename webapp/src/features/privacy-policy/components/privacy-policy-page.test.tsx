import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedOut } from '../../../test/session';

describe('privacy policy: chat conversations', () => {
  it('says chats are stored with the account, kept until deleted (Delete in History) or the account is, archived ones too', async () => {
    stubSystemTheme(false);
    startSignedOut();
    renderApp('/privacy-policy');
    const section = (await screen.findByRole('heading', { name: 'Chat conversations', level: 2 })).closest('section')!;
    expect(section).toHaveTextContent('Your chat conversations are stored with your account on our servers');
    expect(section).toHaveTextContent('Chats an earlier version of the site kept only in your browser are uploaded to your account once');
    expect(section).toHaveTextContent('what each reply used (tokens and cost)');
    expect(section).toHaveTextContent('They are kept until you delete them or your account is deleted');
    expect(section).toHaveTextContent("archived conversations stay, listed in the chat's History, until you delete them there");
    const main = screen.getByRole('main');
    // Nothing left that says otherwise.
    expect(main).not.toHaveTextContent('stay in your browser');
    expect(main).not.toHaveTextContent('do not keep the messages or replies');
    expect(within(main).getByRole('link', { name: 'Chat conversations' })).toHaveAttribute('href', '#privacy-chat');
    expect(main).toHaveTextContent("Chat conversations, open or archived: until you delete them (Delete in the chat's History) or your account is deleted.");
  });
});
