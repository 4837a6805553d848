import type { ReactNode } from 'react';
import { Heading } from '@aws-amplify/ui-react';
import { Link } from 'react-router';
import { Page } from '../../../components/page';
import './privacy-policy.css';

/** Where requests about personal data go (the product's domain, as support@aiwork.app). */
export const PRIVACY_EMAIL = 'privacy@aiwork.app';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="privacy-policy__section" aria-labelledby={id}>
      <Heading level={2} id={id} className="section-title">
        {title}
      </Heading>
      {children}
    </section>
  );
}

/**
 * /privacy-policy, public (route-guard.ts): what AIWork stores, for how long,
 * who processes it and how to have it deleted or exported. Every statement
 * follows what the code does (store TTLs, config defaults, lib/storage.ts);
 * change the text with the behaviour.
 */
export default function PrivacyPolicyPage() {
  const mail = <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>;
  return (
    <Page title="Privacy Policy" subtitle="How AIWork handles your data. Last updated 25 November 2026." className="privacy-policy">
      <Section id="privacy-summary" title="In short">
        <p>
          We keep what we need to run your account, your purchases and your connections, and nothing more. We never see
          your card number. Your chat conversations are kept with your account until you delete them. You can ask us at
          any time for a copy of your data or to delete it: write to {mail}.
        </p>
      </Section>

      <Section id="privacy-stored" title="What we store">
        <ul>
          <li>
            <strong>Your account:</strong> email address, username, full name and whether the address is confirmed. Your
            password is stored only as a one-way hash (bcrypt); nobody, us included, can read it back. If you continue
            with Google, we receive your email address, name and Google account id from Google instead of a password.
          </li>
          <li>
            <strong>Sign-in sessions:</strong> one record per sign-in, so that logging out ends it everywhere it is used.
          </li>
          <li>
            <strong>Prompts you own:</strong> your purchases (prompt, price, date, payment status and the payment
            provider's session id) and the prompts you unlocked with a free use.
          </li>
          <li>
            <strong>Ratings</strong> you give to prompts. Other users see only the average and the number of ratings,
            never who rated.
          </li>
          <li>
            <strong>Your activity list:</strong> the dashboard's record of account creation, sign-ins, purchases and free
            uses.
          </li>
          <li>
            <strong>MCP connections:</strong> the server, the endpoint address you chose and the tools it offers. An API
            key you enter is stored encrypted (AES-256-GCM) and is used only to reach that server; only its last 4
            characters are ever shown, to you alone.
          </li>
          <li>
            <strong>Chat:</strong> your conversations are stored with your account (see{' '}
            <a href="#privacy-chat">Chat conversations</a> below). A copy of them is kept in your browser's storage,
            separately for each account, and is removed from it when you log out; which tools each chat tab offers is
            kept only in your browser's storage. Our servers pass each message on to the model provider you picked and
            stream the reply back. Of the short summaries the chat makes of long messages they keep no text, only usage
            counts (the number of requests and tokens per model and day), as for every message.
          </li>
          <li>
            <strong>Analytics:</strong> when analytics is switched on, page views, sign-ins, purchases, prompts opened and
            free uses are sent to Google Analytics, with the page path (without its query) and, for prompt events, the
            prompt's id, title and price. Never your email address, your password or your chats.
          </li>
          <li>
            <strong>Payments:</strong> Stripe handles the card payment on its own checkout page. We never see or store
            your card number; we receive only whether the payment succeeded and its amount.
          </li>
          <li>
            <strong>Mail:</strong> we send you only the emails you need: the link to confirm your address and, when you
            ask for one, the link to reset your password.
          </li>
          <li>
            <strong>Security records:</strong> failed sign-ins and requests for emails are counted per email address and
            per network address, to stop abuse; our servers' logs record requests (address, time, path, status).
          </li>
        </ul>
      </Section>

      <Section id="privacy-chat" title="Chat conversations">
        <p>
          Your chat conversations are stored with your account on our servers: your messages, the model's replies (with
          the tool calls they made) and what each reply used (tokens and cost). That is how your chats are the same on
          every device you sign in on, and how a reply goes on while you reload or leave the page. Chats an earlier version
          of the site kept only in your browser are uploaded to your account once, the first time you open the chat.
        </p>
        <p>
          They are kept until you delete them or your account is deleted. Closing a chat tab archives its conversation:
          archived conversations stay, listed in the chat's History, until you delete them there (Delete removes a
          conversation and its messages for good). A chat tab closed without any message is deleted at once.
        </p>
      </Section>

      <Section id="privacy-browser" title="Your browser's storage and cookies">
        <p>
          The site keeps your sign-in, your theme choice and, per account, a copy of your chats and copies of your MCP
          connections in your browser's storage. It sets no cookie of its own, except a short-lived one while you sign in with Google.
          When analytics is switched on, Google Analytics sets its own cookies.
        </p>
      </Section>

      <Section id="privacy-retention" title="How long we keep it">
        <ul>
          <li>Your account, ratings, activity list and free uses: until you ask us to delete your account.</li>
          <li>
            Purchases: as long as your account exists, and afterwards for as long as tax and accounting law requires us to
            keep records of payments.
          </li>
          <li>MCP connections and their encrypted keys: until you disconnect them or your account is deleted.</li>
          <li>Sign-in sessions: until they expire (24 hours) or you log out.</li>
          <li>Email confirmation links: 24 hours; password-reset links: 1 hour. Used or expired links are then deleted.</li>
          <li>Counts of failed sign-ins and email requests: at most two hours.</li>
          <li>Chat usage counts: about 13 months.</li>
          <li>Server logs: one month.</li>
          <li>Analytics events: at most 14 months.</li>
          <li>
            Chat conversations, open or archived: until you delete them (Delete in the chat's History) or your account is
            deleted.
          </li>
          <li>The copy of your chats in your browser: until you log out, or clear your browser's storage for this site.</li>
        </ul>
      </Section>

      <Section id="privacy-processors" title="Who processes it for us">
        <ul>
          <li>
            <strong>Amazon Web Services (AWS)</strong> hosts the site and its database, sends our emails (Amazon SES),
            keeps our logs and, through Amazon Bedrock, runs Meta's Llama models.
          </li>
          <li>
            <strong>Stripe</strong> processes card payments.
          </li>
          <li>
            <strong>The model providers you pick in the chat</strong> (OpenAI, Anthropic, Google, or Meta through Amazon
            Bedrock) receive the messages of that conversation, and process them under their own terms.
          </li>
          <li>
            <strong>The MCP servers you connect to</strong> receive what you send them and the API key you give for them.
            They are run by third parties, under their own privacy policies.
          </li>
          <li>
            <strong>Google</strong>, if you choose Continue with Google to sign in, and for analytics when it is switched
            on.
          </li>
        </ul>
        <p>We do not sell your data, and we share it with no one else.</p>
      </Section>

      <Section id="privacy-rights" title="Your choices and rights">
        <p>
          To get a copy of your data, to correct it, or to delete your account and everything tied to it, email {mail} from
          the address of your account. We reply within 30 days; a copy comes as a machine-readable file.
        </p>
        <p>
          Some of it you can remove yourself at any time: disconnect an MCP server in the{' '}
          <Link to="/registry">MCP Registry</Link>, delete a chat conversation for good with Delete in the chat's
          History, and log out to remove the copy of your chats from the browser.
        </p>
        <p>
          For anything else, see the <Link to="/user-guide">User Guide</Link>.
        </p>
      </Section>
    </Page>
  );
}
