// The chat page's controller: tab state (reducer + persistence),
// connections per provider/model, sending with a streamed reply, and the
// automatic summaries of long messages (SPEC §4).

import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../components/notifications/notification-store';
import { connectProvider, type ChatConnection } from './api/connect';
import { isAbortError, StreamError, streamChatMessage } from './api/chat-stream';
import { AUTO_CONNECT_DELAY_MS, SUMMARY_DELAY_MS } from './constants';
import { canReuseConnection, CONNECTION_FAILED, connectedMessage, connectionKey, connectionStatus, type ConnectionStatus } from './connection';
import { newId } from './ids';
import { modelFor, type ProviderId } from './providers';
import { activeTab, chatReducer, contextFor, createMessage, type ChatAction } from './state/chat-state';
import { loadChatState, saveChatState } from './state/persistence';
import type { ChatMessage, ChatState, ChatTab } from './state/types';
import { cutToWords, needsSummary, summaryPrompt } from './summary';

export const STREAM_FAILED = 'Failed to stream message';
/** Storage writes are batched while a reply streams in. */
const SAVE_DELAY_MS = 250;

const nowIso = () => new Date().toISOString();

export interface SendOptions {
  /** Clear the tab's draft once the message is on its way. */
  clearDraft?: boolean;
}

export interface ChatController {
  state: ChatState;
  tab: ChatTab;
  messages: ChatMessage[];
  status: ConnectionStatus;
  sending: boolean;
  draft: string;
  summarizing: ReadonlySet<string>;
  setDraft: (text: string, tabId?: string) => void;
  newTab: () => string;
  closeTab: (tabId: string) => void;
  selectTab: (tabId: string) => void;
  changeModel: (provider: ProviderId, model: string) => void;
  connect: (options?: { force?: boolean }) => Promise<ChatConnection | null>;
  send: (text: string, options?: SendOptions & { tabId?: string }) => Promise<boolean>;
  setShowFull: (messageId: string, showFull: boolean) => void;
}

export function useChat(): ChatController {
  const [state, rawDispatch] = useReducer(chatReducer, undefined, () => loadChatState(newId('tab'), nowIso()));
  const stateRef = useRef(state);
  stateRef.current = state;
  const mounted = useRef(true);
  const dispatch = useCallback((action: ChatAction) => {
    if (mounted.current) rawDispatch(action);
  }, []);

  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [connections, setConnections] = useState<Record<string, ChatConnection>>({});
  const connectionsRef = useRef(connections);
  const [connecting, setConnecting] = useState<Record<string, number>>({});
  const [sendingTabs, setSendingTabs] = useState<Record<string, true>>({});
  const sendingRef = useRef(new Set<string>());
  const [summarizing, setSummarizing] = useState<ReadonlySet<string>>(() => new Set());

  const inflight = useRef(new Map<string, Promise<ChatConnection | null>>());
  const tabControllers = useRef(new Map<string, Set<AbortController>>());
  const autoConnectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const summaryTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  // ------------------------------------------------------------ lifetime

  useEffect(() => {
    mounted.current = true;
    const controllers = tabControllers.current;
    const timers = summaryTimers.current;
    return () => {
      mounted.current = false;
      for (const set of controllers.values()) for (const c of set) c.abort();
      controllers.clear();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      if (autoConnectTimer.current !== undefined) clearTimeout(autoConnectTimer.current);
    };
  }, []);

  // Persist, batched; flushed when the page goes away.
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (saveTimer.current !== undefined) return;
    saveTimer.current = setTimeout(() => {
      saveTimer.current = undefined;
      saveChatState(stateRef.current);
    }, SAVE_DELAY_MS);
  }, [state]);
  useEffect(() => {
    const flush = () => {
      if (saveTimer.current !== undefined) clearTimeout(saveTimer.current);
      saveTimer.current = undefined;
      saveChatState(stateRef.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  const track = (tabId: string, controller: AbortController) => {
    let set = tabControllers.current.get(tabId);
    if (!set) tabControllers.current.set(tabId, (set = new Set()));
    set.add(controller);
    return () => set.delete(controller);
  };

  // --------------------------------------------------------- connections

  const storeConnection = useCallback((key: string, connection: ChatConnection | null) => {
    const next = { ...connectionsRef.current };
    if (connection) next[key] = connection;
    else delete next[key];
    connectionsRef.current = next;
    if (mounted.current) setConnections(next);
  }, []);

  const connectTo = useCallback(
    (provider: ProviderId, model: string, force = false): Promise<ChatConnection | null> => {
      const key = connectionKey(provider, model);
      const existing = connectionsRef.current[key];
      if (!force && canReuseConnection(existing, provider, model)) return Promise.resolve(existing);
      const pending = inflight.current.get(key);
      if (pending) return pending;
      const bump = (delta: number) =>
        mounted.current &&
        setConnecting((c) => {
          const n = (c[key] ?? 0) + delta;
          const next = { ...c };
          if (n > 0) next[key] = n;
          else delete next[key];
          return next;
        });
      const run = (async () => {
        bump(1);
        try {
          const connection = await connectProvider(provider, model);
          storeConnection(key, connection);
          toast.success(connectedMessage(connection.server_name));
          return connection;
        } catch (error) {
          if (force) storeConnection(key, null);
          toast.error(errorMessage(error, CONNECTION_FAILED));
          return null;
        } finally {
          inflight.current.delete(key);
          bump(-1);
        }
      })();
      inflight.current.set(key, run);
      return run;
    },
    [storeConnection],
  );

  const connect = useCallback(
    (options: { force?: boolean } = {}) => {
      const tab = activeTab(stateRef.current);
      return connectTo(tab.provider, tab.model, options.force ?? false);
    },
    [connectTo],
  );

  const changeModel = useCallback(
    (provider: ProviderId, model: string) => {
      const tab = activeTab(stateRef.current);
      const nextModel = modelFor(provider, model);
      if (tab.provider === provider && tab.model === nextModel) return;
      dispatch({ type: 'setTabModel', tabId: tab.id, provider, model: nextModel });
      if (autoConnectTimer.current !== undefined) clearTimeout(autoConnectTimer.current);
      autoConnectTimer.current = setTimeout(() => {
        autoConnectTimer.current = undefined;
        void connectTo(provider, nextModel);
      }, AUTO_CONNECT_DELAY_MS);
    },
    [connectTo, dispatch],
  );

  // --------------------------------------------------------------- tabs

  const setDraft = useCallback((text: string, tabId?: string) => {
    const id = tabId ?? stateRef.current.activeTabId;
    setDrafts((d) => (d[id] === text ? d : { ...d, [id]: text }));
  }, []);

  const newTab = useCallback(() => {
    const action = { type: 'newTab' as const, id: newId('tab'), now: nowIso() };
    dispatch(action);
    // Make the new tab visible to callers (the hand-off) before the next render.
    stateRef.current = chatReducer(stateRef.current, action);
    return action.id;
  }, [dispatch]);

  const closeTab = useCallback(
    (tabId: string) => {
      const controllers = tabControllers.current.get(tabId);
      if (controllers) for (const c of controllers) c.abort();
      tabControllers.current.delete(tabId);
      dispatch({ type: 'closeTab', tabId, id: newId('tab'), now: nowIso() });
      setDrafts((d) => {
        if (!(tabId in d)) return d;
        const next = { ...d };
        delete next[tabId];
        return next;
      });
    },
    [dispatch],
  );

  const selectTab = useCallback((tabId: string) => dispatch({ type: 'selectTab', tabId }), [dispatch]);

  // ------------------------------------------------------------- sending

  const setSending = (tabId: string, on: boolean) => {
    if (on) sendingRef.current.add(tabId);
    else sendingRef.current.delete(tabId);
    if (!mounted.current) return;
    setSendingTabs((s) => {
      if (on === Boolean(s[tabId])) return s;
      const next = { ...s };
      if (on) next[tabId] = true;
      else delete next[tabId];
      return next;
    });
  };

  const send = useCallback(
    async (text: string, options: SendOptions & { tabId?: string } = {}): Promise<boolean> => {
      const tabId = options.tabId ?? stateRef.current.activeTabId;
      const message = text.trim();
      if (!message || sendingRef.current.has(tabId)) return false;
      setSending(tabId, true);
      try {
        const tabAtStart = stateRef.current.tabs.find((t) => t.id === tabId);
        if (!tabAtStart) return false;
        const connection = await connectTo(tabAtStart.provider, tabAtStart.model);
        const tab = stateRef.current.tabs.find((t) => t.id === tabId);
        if (!connection || !tab || !mounted.current) return false;

        const context = contextFor(stateRef.current.conversations[tabId] ?? []);
        const now = nowIso();
        const assistantId = newId('msg');
        dispatch({ type: 'addMessage', tabId, message: createMessage(newId('msg'), 'user', message, now, true) });
        if (options.clearDraft) setDraft('', tabId);
        dispatch({ type: 'addMessage', tabId, message: createMessage(assistantId, 'assistant', '', now, false) });

        const controller = new AbortController();
        const untrack = track(tabId, controller);
        try {
          await streamChatMessage(
            { connection_id: connection.id, message, model: connection.model, context },
            {
              signal: controller.signal,
              onContent: (chunk) => dispatch({ type: 'appendContent', tabId, messageId: assistantId, chunk }),
            },
          );
          dispatch({ type: 'completeMessage', tabId, messageId: assistantId });
          return true;
        } catch (error) {
          if (isAbortError(error) || !mounted.current) return false;
          dispatch({ type: 'removeMessage', tabId, messageId: assistantId });
          // The server forgot the connection (404): connect afresh next time.
          if (error instanceof StreamError && error.status === 404) storeConnection(connectionKey(tab.provider, tab.model), null);
          toast.error(error instanceof Error && error.message ? error.message : STREAM_FAILED);
          return false;
        } finally {
          untrack();
        }
      } finally {
        setSending(tabId, false);
      }
    },
    [connectTo, dispatch, setDraft, storeConnection],
  );

  // ----------------------------------------------------------- summaries

  const summarize = useCallback(
    async (tabId: string, messageId: string) => {
      summaryTimers.current.delete(messageId);
      const tab = stateRef.current.tabs.find((t) => t.id === tabId);
      const message = stateRef.current.conversations[tabId]?.find((m) => m.id === messageId);
      if (!tab || !message || !needsSummary(message)) return;
      const connection = connectionsRef.current[connectionKey(tab.provider, tab.model)];
      if (!canReuseConnection(connection, tab.provider, tab.model)) return;
      dispatch({ type: 'patchMessage', tabId, messageId, patch: { summaryRequested: true } });
      setSummarizing((s) => new Set(s).add(messageId));
      const controller = new AbortController();
      const untrack = track(tabId, controller);
      try {
        const { content } = await streamChatMessage(
          { connection_id: connection.id, message: summaryPrompt(message.content), model: connection.model, context: [] },
          { signal: controller.signal },
        );
        const summary = cutToWords(content);
        if (summary) dispatch({ type: 'patchMessage', tabId, messageId, patch: { summary } });
      } catch {
        // SPEC §8: a failed summary is silent; the message simply has none.
      } finally {
        untrack();
        if (mounted.current)
          setSummarizing((s) => {
            const next = new Set(s);
            next.delete(messageId);
            return next;
          });
      }
    },
    [dispatch],
  );

  useEffect(() => {
    for (const tab of state.tabs) {
      const connection = connections[connectionKey(tab.provider, tab.model)];
      if (!canReuseConnection(connection, tab.provider, tab.model)) continue;
      for (const message of state.conversations[tab.id] ?? []) {
        if (!needsSummary(message) || summaryTimers.current.has(message.id)) continue;
        summaryTimers.current.set(
          message.id,
          setTimeout(() => void summarize(tab.id, message.id), SUMMARY_DELAY_MS),
        );
      }
    }
  }, [state, connections, summarize]);

  const setShowFull = useCallback(
    (messageId: string, showFull: boolean) => {
      const tabId = stateRef.current.activeTabId;
      dispatch({ type: 'patchMessage', tabId, messageId, patch: { showFull } });
    },
    [dispatch],
  );

  // ------------------------------------------------------------ the view

  const tab = activeTab(state);
  const key = connectionKey(tab.provider, tab.model);
  const status = connectionStatus(Boolean(connecting[key]), connections[key], tab.provider, tab.model);
  const messages = useMemo(() => state.conversations[tab.id] ?? [], [state.conversations, tab.id]);

  return {
    state,
    tab,
    messages,
    status,
    sending: Boolean(sendingTabs[tab.id]),
    draft: drafts[tab.id] ?? '',
    summarizing,
    setDraft,
    newTab,
    closeTab,
    selectTab,
    changeModel,
    connect,
    send,
    setShowFull,
  };
}
