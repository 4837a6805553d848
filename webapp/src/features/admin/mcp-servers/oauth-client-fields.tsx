// The operator's pre-registered OAuth client of a server, for servers whose
// authorization server lets no app register: its id, its secret (write
// only: Set, Replace or Clear; the API answers only whether one is set) and
// the authorization server it is for (the secret goes to no other). Shown
// for OAuth servers, and for any server that has a client.

import { useId } from 'react';
import { Button, PasswordField, TextField } from '@aws-amplify/ui-react';
import type { SecretAction, ServerErrors, ServerForm } from './server-rules';

type TextProps = {
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  hasError: boolean;
  errorMessage: string | undefined;
};

interface OAuthClientFieldsProps {
  form: ServerForm;
  set: <K extends keyof ServerForm>(key: K, value: ServerForm[K]) => void;
  textField: (key: 'oauth_client_id' | 'oauth_issuer' | 'oauth_secret') => TextProps;
  shown: (field: keyof ServerErrors) => string | undefined;
}

export function OAuthClientFields({ form, set, textField, shown }: OAuthClientFieldsProps) {
  const legendId = useId();
  const hasSecret = form.oauth_base?.has_secret ?? false;
  const act = (action: SecretAction) => {
    set('oauth_secret_action', action);
    if (action !== 'set') set('oauth_secret', '');
  };
  return (
    <fieldset className="admin-features" aria-labelledby={legendId} data-testid="oauth-client">
      <legend id={legendId} className="admin-features__legend">
        Operator OAuth client
      </legend>
      <p className="admin-muted">For servers whose sign-in lets no app register: the client you registered there, with this site’s redirect URI.</p>
      <TextField
        label="OAuth client id"
        descriptiveText="Empty: none (users’ sign-ins register this app where the server allows it)."
        {...textField('oauth_client_id')}
        autoComplete="off"
        spellCheck={false}
      />
      {form.oauth_secret_action === 'set' ? (
        <div className="admin-inline-form">
          <PasswordField
            label="Client secret"
            descriptiveText="Kept encrypted; never shown again."
            {...textField('oauth_secret')}
            autoComplete="new-password"
            spellCheck={false}
          />
          <Button size="small" onClick={() => act('keep')}>
            Cancel
          </Button>
        </div>
      ) : (
        <div className="admin-inline-form" data-testid="oauth-secret-state">
          <span>
            Client secret:{' '}
            {form.oauth_secret_action === 'clear' ? 'will be cleared when you save.' : hasSecret ? 'set (never shown).' : 'none.'}
          </span>
          {form.oauth_secret_action === 'clear' ? (
            <Button size="small" onClick={() => act('keep')}>
              Keep it
            </Button>
          ) : (
            <>
              <Button size="small" onClick={() => act('set')}>
                {hasSecret ? 'Replace' : 'Set'}
              </Button>
              {hasSecret ? (
                <Button size="small" onClick={() => act('clear')}>
                  Clear
                </Button>
              ) : null}
            </>
          )}
        </div>
      )}
      {shown('oauth_secret') && form.oauth_secret_action !== 'set' ? <p role="alert">{shown('oauth_secret')}</p> : null}
      <TextField
        label="Authorization server (issuer)"
        placeholder="https://auth.example.com"
        descriptiveText="The issuer in its metadata. The secret is sent to no other server; empty: the first sign-in records it."
        {...textField('oauth_issuer')}
        autoComplete="off"
        spellCheck={false}
      />
    </fieldset>
  );
}
