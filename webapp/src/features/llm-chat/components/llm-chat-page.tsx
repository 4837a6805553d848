// SPEC §2 'llm-chat': tabs, provider/model picker with connection status,
// the conversation, the message box, and the editor / menu / viewer dialogs.
// A tab bound to a marketplace agent (/llm-chat?agent={id} opens one) runs
// on the agent's model, lists its servers to connect, and offers its
// starter prompts.
// The tabs are the conversations kept with the account; History
// (closed ones: Reopen, Delete), Stop for a streaming reply, Retry for a
// failed one.

import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Page } from '../../../components/page';
import { useAgent } from '../../../lib/api/agents';
import { takeChatHandoff } from '../../../lib/chat-handoff';
import type { ApprovalDecision } from '../api/chat-stream';
import { MAX_TOOL_SERVERS, useMcpTools } from '../api/mcp-tools';
import { AttachMenu } from '../composer/attach-menu';
import { AttachmentChips } from '../composer/attachment-chips';
import { withAttachments } from '../composer/attachments';
import { PromptArgumentsModal } from '../composer/prompt-arguments-modal';
import { usePromptMenu } from '../composer/prompt-menu';
import { holdsMenu } from '../menu';
import { providerLabel } from '../providers';
import type { ChatMessage, MessageAttachment } from '../state/types';
import { agentConnections, agentToolsForSend, enabledServers, toolsForSend, toolsLine } from '../tools/tool-settings';
import { AgentServers } from './agent-servers';
import { useAgentTab } from './use-agent-tab';
import { useChat, type SendOptions } from '../use-chat';
import { ChatInput } from './chat-input';
import { FillMenuModal } from './fill-menu-modal';
import { HistoryControl } from './history-control';
import { LargeEditorModal } from './large-editor-modal';
import { MessageList } from './message-list';
import { FullMessageModal, RawMessageModal } from './message-viewers';
import { ModelPicker } from './model-picker';
import { TabStrip, tabDomId } from './tab-strip';
import { ToolsControl } from './tools-control';
import { useSignInReturn } from './use-signin-return';
import './llm-chat.css';

interface MenuDialog {
  tabId: string;
  source: string;
  /** Opened for the message box: sending clears it. */
  fromInput: boolean;
}

const NO_ATTACHMENTS: MessageAttachment[] = [];

export default function LlmChatPage() {
  const chat = useChat();
  useSignInReturn(chat.messages);
  const { tab, state, setDraft, newTab, setShowFull, answerApproval } = chat;
  const panelId = useId();
  const label = providerLabel(tab.provider);
  const tools = useMcpTools();
  const servers = tools.data?.servers;
  const { mutate: revalidateTools } = tools;

  useAgentTab(chat.userId);
  const agentView = useAgent(tab.agent?.id ?? null);
  const agent = tab.agent && agentView.agent?.id === tab.agent.id ? agentView.agent : undefined;
  const connections = useMemo(() => agentConnections(servers, agent?.servers ?? []), [servers, agent]);
  const { mutate: revalidateAgent } = agentView;

  // Every message offers the tools of the servers on in its tab; an agent's
  // tab, those of the agent's servers the user connected.
  const toolsFor = useCallback(
    (target: typeof tab) => (target.agent ? (target.agent.id === agent?.id ? agentToolsForSend(connections, target) : undefined) : toolsForSend(servers, target)),
    [agent, connections, servers],
  );
  const send = useCallback(
    async (text: string, options: SendOptions = {}) => {
      const target = options.tabId ? state.tabs.find((t) => t.id === options.tabId) : tab;
      const sent = await chat.send(text, { ...options, tools: toolsFor(target ?? tab) });
      // A server disconnected meanwhile is refused by name: see the list as it is now.
      if (!sent && servers?.length) void revalidateTools();
      return sent;
    },
    [chat.send, servers, state.tabs, tab, revalidateTools, toolsFor],
  );
  // An agent's tab lists its servers and allowed tools in its own panel.
  const emptyToolsLine = useMemo(() => (tab.agent ? '' : toolsLine(enabledServers(servers, tab))), [servers, tab]);

  const [largeEditor, setLargeEditor] = useState(false);
  const [menuDialog, setMenuDialog] = useState<MenuDialog | null>(null);
  const [fullView, setFullView] = useState<string | null>(null);
  const [rawView, setRawView] = useState<string | null>(null);

  // 'Use in Chat' hand-off (SPEC §4): taken once, so a reload does not repeat it.
  const handoffTaken = useRef(false);
  useEffect(() => {
    if (handoffTaken.current) return;
    handoffTaken.current = true;
    const handoff = takeChatHandoff();
    if (!handoff) return;
    const tabId = (handoff.forceNewTab ? newTab() : null) ?? state.activeTabId;
    setDraft(handoff.text, tabId);
    if (handoff.openMenu && holdsMenu(handoff.text)) setMenuDialog({ tabId, source: handoff.text, fromInput: true });
  }, [newTab, setDraft, state.activeTabId]);

  // The composer: the tab's enabled servers' prompts ("/") and the
  // resources attached to the next message (chips, per tab).
  const enabledIds = useMemo(
    () =>
      enabledServers(servers, tab)
        .slice(0, MAX_TOOL_SERVERS)
        .map((s) => s.connection_id),
    [servers, tab],
  );
  const [attachments, setAttachments] = useState<Record<string, MessageAttachment[]>>({});
  const tabAttachments = attachments[tab.id] ?? NO_ATTACHMENTS;
  const setTabAttachments = useCallback(
    (tabId: string, update: (old: MessageAttachment[]) => MessageAttachment[]) => setAttachments((all) => ({ ...all, [tabId]: update(all[tabId] ?? []) })),
    [],
  );
  // A prompt's text goes in the box; the resources it refers to become chips.
  const applyPrompt = useCallback(
    (text: string, added: MessageAttachment[]) => {
      setDraft(text);
      if (added.length > 0) setTabAttachments(tab.id, (old) => withAttachments(old, added));
    },
    [setDraft, setTabAttachments, tab.id],
  );
  const promptMenu = usePromptMenu({ draft: chat.draft, connectionIds: enabledIds, attached: tabAttachments, onApply: applyPrompt });

  const sendDraft = () => {
    const goes = chat.draft.trim() !== '' && !chat.sending && !chat.awaitingApproval;
    void send(chat.draft, { clearDraft: true, attachments: tabAttachments });
    // The chips go with the message, and show on it.
    if (goes && tabAttachments.length > 0) setTabAttachments(tab.id, () => []);
  };

  // Retry sends the failed reply's message again, offering the tab's tools as a send does.
  const { retry } = chat;
  const onRetry = useCallback((message: ChatMessage) => void retry(message.id, { tools: toolsFor(tab) }), [retry, toolsFor, tab]);

  // Stop: the button says so until the reply has ended.
  const [stoppingId, setStoppingId] = useState<string | null>(null);
  const streamingId = chat.streaming?.id ?? null;
  const onStop = () => {
    if (!streamingId) return;
    setStoppingId(streamingId);
    void chat.stop().then((asked) => {
      if (!asked) setStoppingId(null);
    });
  };

  const onViewFull = useCallback(
    (message: ChatMessage) => {
      setShowFull(message.id, true);
      setFullView(message.id);
    },
    [setShowFull],
  );
  const onShowLess = useCallback((message: ChatMessage) => setShowFull(message.id, false), [setShowFull]);
  const onOpenMenu = useCallback(
    (message: ChatMessage) => setMenuDialog({ tabId: state.activeTabId, source: message.content, fromInput: false }),
    [state.activeTabId],
  );
  const onDecision = useCallback(
    (message: ChatMessage, decision: ApprovalDecision) => {
      void answerApproval(message.id, decision).then(() => {
        // "Always allow" is now on the list (and revoke-able) in Tools.
        if (decision === 'always') void revalidateTools();
      });
    },
    [answerApproval, revalidateTools],
  );

  const fullMessage = fullView ? chat.messages.find((m) => m.id === fullView) : undefined;

  return (
    <Page title="LLM Chat" className="chat-page">
      <div className="chat">
        <TabStrip
          tabs={state.tabs}
          activeTabId={state.activeTabId}
          panelId={panelId}
          onSelect={chat.selectTab}
          onClose={chat.closeTab}
          onNew={() => void newTab()}
        >
          <HistoryControl onReopen={chat.reopenConversation} onDelete={chat.deleteConversation} />
        </TabStrip>
        <section id={panelId} role="tabpanel" aria-labelledby={tabDomId(tab.id)} className="chat-panel">
          <ModelPicker
            provider={tab.provider}
            model={tab.model}
            status={chat.status}
            usageTotal={chat.usageTotal}
            onChange={chat.changeModel}
            onConnect={() => void chat.connect()}
            onReconnect={() => void chat.connect({ force: true })}
            lockedBy={tab.agent?.name}
            tools={
              tab.agent ? undefined : <ToolsControl
                data={tools.data}
                loading={tools.isLoading}
                error={tools.error}
                toolsOff={tab.toolsOff ?? []}
                confirmReadOnly={tab.confirmReadOnly === true}
                onToggle={chat.setToolServer}
                onConfirmReadOnly={chat.setConfirmReadOnly}
                onRevoke={tools.revoke}
                onRetry={() => void revalidateTools()}
              />
            }
          />
          {agent && chat.userId ? (
            <AgentServers
              agent={agent}
              connections={connections}
              userId={chat.userId}
              onConnected={() => {
                void revalidateTools();
                void revalidateAgent();
              }}
              showStarters={chat.messages.length === 0}
              onStarter={(text) => void send(text)}
              busy={chat.sending}
            />
          ) : null}
          <MessageList
            key={tab.id}
            messages={chat.messages}
            providerLabel={label}
            model={tab.model}
            connecting={chat.status === 'connecting'}
            summarizing={chat.summarizing}
            toolsLine={emptyToolsLine}
            busy={chat.sending}
            onViewFull={onViewFull}
            onShowLess={onShowLess}
            onOpenMenu={onOpenMenu}
            onDecision={onDecision}
            onRetry={onRetry}
          />
          <div className="chat-tools">
            <button type="button" className="chat-button chat-button--small" onClick={() => setLargeEditor(true)}>
              Open in Big View
            </button>
            <button
              type="button"
              className="chat-button chat-button--small"
              disabled={!holdsMenu(chat.draft)}
              title={holdsMenu(chat.draft) ? undefined : 'The message holds no [start menu] … [end menu] template'}
              onClick={() => setMenuDialog({ tabId: tab.id, source: chat.draft, fromInput: true })}
            >
              Open in Menu
            </button>
          </div>
          <ChatInput
            value={chat.draft}
            placeholder={`Message ${label} (${tab.model})...`}
            sending={chat.sending}
            blocked={chat.pauseText ?? undefined}
            onChange={(text) => setDraft(text)}
            onSend={sendDraft}
            onStop={streamingId ? onStop : undefined}
            stopping={streamingId !== null && streamingId === stoppingId}
            popup={promptMenu.popup}
            onKeyDownFirst={promptMenu.onKeyDown}
            inputAria={promptMenu.inputAria}
            above={
              <AttachmentChips
                attachments={tabAttachments}
                label="Attached to the next message"
                onRemove={(a) => setTabAttachments(tab.id, (old) => old.filter((o) => o !== a))}
              />
            }
            beside={
              <AttachMenu
                connectionIds={enabledIds}
                attached={tabAttachments}
                onAttach={(a) => setTabAttachments(tab.id, (old) => withAttachments(old, [a]))}
              />
            }
          />
        </section>
      </div>

      {largeEditor ? (
        <LargeEditorModal
          text={chat.draft}
          onClose={() => setLargeEditor(false)}
          onDone={(text) => {
            setDraft(text);
            setLargeEditor(false);
          }}
        />
      ) : null}
      {menuDialog ? (
        <FillMenuModal
          key={menuDialog.source}
          source={menuDialog.source}
          busy={chat.sending}
          onCancel={() => setMenuDialog(null)}
          onSubmit={(message) => {
            const { tabId, fromInput } = menuDialog;
            setMenuDialog(null);
            void send(message, { tabId, clearDraft: fromInput });
          }}
        />
      ) : null}
      {promptMenu.chosen ? (
        <PromptArgumentsModal
          connectionId={promptMenu.chosen.connectionId}
          serverName={promptMenu.chosen.serverName}
          prompt={promptMenu.chosen.prompt}
          onSubmit={promptMenu.applyChosen}
          onCancel={promptMenu.closeChosen}
        />
      ) : null}
      {fullMessage ? (
        <FullMessageModal
          message={fullMessage}
          onRaw={() => setRawView(fullMessage.content)}
          onClose={() => setFullView(null)}
        />
      ) : null}
      {rawView !== null ? <RawMessageModal content={rawView} onClose={() => setRawView(null)} /> : null}
    </Page>
  );
}
