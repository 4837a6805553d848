export interface NavLink {
  to: string;
  label: string;
}

/** The top bar's links (SPEC §2), repeated in the side menu. */
export const MAIN_LINKS: readonly NavLink[] = [
  { to: '/user-guide', label: 'User Guide' },
  { to: '/marketplace', label: 'Prompt Marketplace' },
  { to: '/agents', label: 'Agent Marketplace' },
  { to: '/registry', label: 'MCP Registry' },
  { to: '/llm-chat', label: 'LLM Chat' },
];

export const DASHBOARD_LINK: NavLink = { to: '/dashboard', label: 'Dashboard' };
export const ADMIN_LINK: NavLink = { to: '/admin', label: 'Admin' };

/** Side-menu entries: the main links, Dashboard when signed in, Admin only for admins. */
export function sideMenuLinks(auth: { signedIn: boolean; isAdmin: boolean }): NavLink[] {
  const links = [...MAIN_LINKS];
  if (auth.signedIn) links.push(DASHBOARD_LINK);
  if (auth.signedIn && auth.isAdmin) links.push(ADMIN_LINK);
  return links;
}
