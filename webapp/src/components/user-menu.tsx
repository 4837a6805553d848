import { Menu, MenuButton, MenuItem } from '@aws-amplify/ui-react';
import { useNavigate } from 'react-router';
import type { User } from '../lib/auth-session';
import { initials } from '../lib/initials';
import { useLogout } from '../lib/use-auth';

export function UserMenu({ user }: { user: User }) {
  const navigate = useNavigate();
  const logout = useLogout();
  const label = user.full_name || user.username || user.email;
  return (
    <Menu
      menuAlign="end"
      trigger={
        <MenuButton className="user-menu-button" data-testid="user-menu" aria-label={`Account menu for ${label}`} variation="link">
          <span className="avatar" aria-hidden="true">
            {initials(user)}
          </span>
        </MenuButton>
      }
    >
      <MenuItem onClick={() => navigate('/dashboard')}>Dashboard</MenuItem>
      <MenuItem onClick={logout}>Logout</MenuItem>
    </Menu>
  );
}
