import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListingCatalogue } from './listing';

describe('ListingCatalogue', () => {
  // The cards' titles are h3s: an h2 must stand above them (axe's heading-order).
  it('is a region named by its own h2, above the cards', () => {
    render(
      <ListingCatalogue heading="Servers">
        <h3>A card</h3>
      </ListingCatalogue>,
    );
    const region = screen.getByRole('region', { name: 'Servers' });
    expect(within(region).getByRole('heading', { level: 2, name: 'Servers' })).toBeInTheDocument();
    expect(within(region).getByRole('heading', { level: 3, name: 'A card' })).toBeInTheDocument();
  });
});
