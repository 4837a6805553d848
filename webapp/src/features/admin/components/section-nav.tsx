import { NavLink } from 'react-router';

/** The admin areas, each its own address under /admin. */
export const ADMIN_SECTIONS = [
  { path: 'prompts', label: 'Prompts' },
  { path: 'categories', label: 'Categories' },
  { path: 'mcp-servers', label: 'MCP servers' },
  { path: 'reviews', label: 'Reviews' },
  { path: 'creators', label: 'Creators' },
  { path: 'agents', label: 'Agents' },
  { path: 'orders', label: 'Orders' },
  { path: 'users', label: 'Users' },
  { path: 'audit', label: 'Audit log' },
] as const;

/** Links styled as tabs; the current one carries aria-current="page". */
export function SectionNav() {
  return (
    <nav aria-label="Admin sections" className="admin-nav">
      <ul className="admin-nav__list">
        {ADMIN_SECTIONS.map((s) => (
          <li key={s.path}>
            <NavLink to={`/admin/${s.path}`} className="admin-nav__link">
              {s.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
