/** A mount's listing_visibility, as Vault takes it for engines and auth methods alike. */
import { UserError } from '../../shared/errors.js';

const LISTING_VISIBILITY = ['', 'unauth', 'hidden'];

export function checkListingVisibility(visibility: string): void {
  if (!LISTING_VISIBILITY.includes(visibility)) throw new UserError(`invalid listing_visibility ${visibility}: use "unauth", "hidden" or ""`);
}
