import { describe, expect, it } from 'vitest';
import { MAIN_LINKS, sideMenuLinks } from './nav-links';

describe('navigation links', () => {
  it('has the SPEC top-bar links in order', () => {
    expect(MAIN_LINKS.map((l) => l.label)).toEqual(['User Guide', 'Prompt Marketplace', 'Agent Marketplace', 'MCP Registry', 'LLM Chat']);
    expect(MAIN_LINKS.map((l) => l.to)).toEqual(['/user-guide', '/marketplace', '/agents', '/registry', '/llm-chat']);
  });

  it('side menu: visitors get the main links only', () => {
    expect(sideMenuLinks({ signedIn: false, isAdmin: false }).map((l) => l.label)).toEqual(MAIN_LINKS.map((l) => l.label));
    expect(sideMenuLinks({ signedIn: false, isAdmin: true }).map((l) => l.label)).not.toContain('Admin');
  });

  it('side menu: signed-in users get Dashboard, admins also Admin', () => {
    const user = sideMenuLinks({ signedIn: true, isAdmin: false }).map((l) => l.label);
    expect(user).toContain('Dashboard');
    expect(user).not.toContain('Admin');
    const admin = sideMenuLinks({ signedIn: true, isAdmin: true }).map((l) => l.label);
    expect(admin.slice(-2)).toEqual(['Dashboard', 'Admin']);
  });
});
