import { describe, expect, it } from 'vitest';
import { connectionLabel } from './connection-label';

describe('connectionLabel', () => {
  it('shows the host beside the name only when the connection reached another host', () => {
    expect(connectionLabel({ server_name: 'GitHub', endpoint_host: '127.0.0.1:18101' })).toBe('GitHub · 127.0.0.1:18101');
    expect(connectionLabel({ server_name: 'GitHub', endpoint_host: '' })).toBe('GitHub');
  });
});
