// The paperclip beside the composer: a dialog listing the resources and
// resource templates of the servers enabled in the tab. A resource is
// attached at once; a template asks for its variables first (with the
// server's completions). Attached ones show as chips above the composer.

import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal';
import { errorMessage } from '../../../lib/api-client';
import {
  fetchResources,
  fillTemplate,
  humanSize,
  MAX_ATTACHMENTS,
  MAX_RESOURCE_BYTES,
  templateVariables,
  type McpResourceTemplate,
  type ResourceServer,
} from '../api/mcp-composer';
import type { MessageAttachment } from '../state/types';
import { CompletingField } from './completing-field';
import './composer.css';

export const NO_RESOURCES = 'No resources on the enabled servers.';
export const RESOURCES_LOADING = 'Loading resources...';
export const RESOURCES_FAILED = 'The resources could not be loaded.';

interface AttachMenuProps {
  connectionIds: readonly string[];
  attached: readonly MessageAttachment[];
  onAttach: (attachment: MessageAttachment) => void;
  disabled?: boolean;
}

export function AttachMenu({ connectionIds, attached, onAttach, disabled }: AttachMenuProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="chat-button chat-input__attach"
        aria-label="Attach a resource"
        title="Attach a resource from your MCP servers"
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={disabled}
        data-testid="attach-button"
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">📎</span>
      </button>
      {open ? <AttachDialog connectionIds={connectionIds} attached={attached} onAttach={onAttach} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

type Listing = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; servers: ResourceServer[] };

interface AttachDialogProps extends Omit<AttachMenuProps, 'disabled'> {
  onClose: () => void;
}

function AttachDialog({ connectionIds, attached, onAttach, onClose }: AttachDialogProps) {
  const titleId = useId();
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const [template, setTemplate] = useState<{ server: ResourceServer; template: McpResourceTemplate } | null>(null);
  const [reload, setReload] = useState(0);

  const key = connectionIds.join(',');
  useEffect(() => {
    const ids = key ? key.split(',') : [];
    if (ids.length === 0) {
      setListing({ status: 'ready', servers: [] });
      return;
    }
    const controller = new AbortController();
    setListing({ status: 'loading' });
    fetchResources(ids, controller.signal)
      .then((servers) => setListing({ status: 'ready', servers }))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setListing({ status: 'error', message: errorMessage(err, RESOURCES_FAILED) });
      });
    return () => controller.abort();
  }, [key, reload]);

  const full = attached.length >= MAX_ATTACHMENTS;
  const isAttached = (connectionId: string, uri: string) => attached.some((a) => a.connection_id === connectionId && a.uri === uri);
  const attach = useCallback(
    (a: MessageAttachment) => {
      onAttach(a);
      onClose();
    },
    [onAttach, onClose],
  );
  const servers = listing.status === 'ready' ? listing.servers : [];
  const empty = listing.status === 'ready' && servers.every((s) => s.resources.length === 0 && s.templates.length === 0 && !s.error);

  return (
    <Modal labelledBy={titleId} onClose={onClose} className="chat-modal chat-modal--wide" testId="attach-dialog">
      <div className="chat-modal__form">
        <header className="chat-modal__head">
          <h2 id={titleId} className="chat-modal__title">
            Attach a resource
          </h2>
        </header>
        <div className="chat-modal__body chat-resources">
          {full ? <p role="status">A message may attach at most {MAX_ATTACHMENTS} resources.</p> : null}
          {listing.status === 'loading' ? <p role="status">{RESOURCES_LOADING}</p> : null}
          {listing.status === 'error' ? (
            <p role="alert">
              {listing.message}{' '}
              <button type="button" className="chat-link-button" onClick={() => setReload((n) => n + 1)}>
                Try again
              </button>
            </p>
          ) : null}
          {empty ? <p role="status">{NO_RESOURCES}</p> : null}
          {template ? (
            <TemplateForm
              server={template.server}
              template={template.template}
              onCancel={() => setTemplate(null)}
              onAttach={(uri) =>
                attach({ connection_id: template.server.connection_id, uri, name: uri.split('/').pop() || uri, mime_type: template.template.mime_type, size: 0 })
              }
            />
          ) : (
            servers
              .filter((s) => s.error || s.resources.length > 0 || s.templates.length > 0)
              .map((s) => (
                <section key={s.connection_id} className="chat-resources__server" aria-label={s.server_name} data-testid="resource-server">
                  <h3>{s.server_name}</h3>
                  {s.error ? <p role="alert">{s.error}</p> : null}
                  <ul className="chat-resources__list">
                    {s.resources.map((r) => {
                      const tooLarge = r.size > MAX_RESOURCE_BYTES;
                      const already = isAttached(s.connection_id, r.uri);
                      return (
                        <li key={r.uri}>
                          <button
                            type="button"
                            className="chat-resources__item"
                            disabled={tooLarge || already || full}
                            aria-pressed={already}
                            data-testid="resource-option"
                            onClick={() => attach({ connection_id: s.connection_id, uri: r.uri, name: r.title || r.name, mime_type: r.mime_type, size: r.size })}
                          >
                            {r.title || r.name}
                            <span className="chat-resources__meta">
                              {[r.mime_type, r.size ? humanSize(r.size) : '', tooLarge ? 'too large to attach (over 4 MB)' : '', already ? 'attached' : '']
                                .filter(Boolean)
                                .join(' · ')}
                            </span>
                            {r.description ? <span className="chat-resources__meta">{r.description}</span> : null}
                          </button>
                        </li>
                      );
                    })}
                    {s.templates.map((t) => (
                      <li key={t.uri_template}>
                        <button
                          type="button"
                          className="chat-resources__item"
                          disabled={full}
                          data-testid="template-option"
                          onClick={() => setTemplate({ server: s, template: t })}
                        >
                          {t.title || t.name}
                          <span className="chat-resources__meta">{t.uri_template}</span>
                          {t.description ? <span className="chat-resources__meta">{t.description}</span> : null}
                        </button>
                      </li>
                    ))}
                  </ul>
                </section>
              ))
          )}
        </div>
        {template ? null : (
          <footer className="chat-modal__foot">
            <button type="button" className="chat-button" onClick={onClose}>
              Close
            </button>
          </footer>
        )}
      </div>
    </Modal>
  );
}

interface TemplateFormProps {
  server: ResourceServer;
  template: McpResourceTemplate;
  onCancel: () => void;
  onAttach: (uri: string) => void;
}

/** A template's variables, each with the server's completions; Attach fills the URI. */
function TemplateForm({ server, template, onCancel, onAttach }: TemplateFormProps) {
  const idBase = useId();
  const names = templateVariables(template.uri_template);
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = names.filter((n) => !(values[n] ?? '').trim());
    if (missing.length > 0) {
      setError(`Fill in ${missing.join(', ')}.`);
      return;
    }
    onAttach(fillTemplate(template.uri_template, values));
  };
  return (
    <form className="chat-fill" onSubmit={submit} noValidate data-testid="template-form">
      <h3>{template.title || template.name}</h3>
      <p className="chat-fill__help">{template.uri_template}</p>
      {names.map((n) => (
        <CompletingField
          key={n}
          connectionId={server.connection_id}
          completionRef={{ type: 'ref/resource', uri: template.uri_template }}
          name={n}
          label={n}
          required
          value={values[n] ?? ''}
          context={values}
          idBase={idBase}
          onChange={(v) => setValues((old) => ({ ...old, [n]: v }))}
        />
      ))}
      {error ? (
        <p className="chat-fill__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="chat-modal__foot">
        <button type="button" className="chat-button" onClick={onCancel}>
          Back
        </button>
        <button type="submit" className="chat-button chat-button--primary">
          Attach
        </button>
      </div>
    </form>
  );
}
