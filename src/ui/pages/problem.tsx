import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { currentToken } from '../token.js';

/** A failed request, said so that the reader knows what to do: sign in, or which object is missing. */
export function Problem(props: { error: Error }) {
  const { error } = props;
  const denied = error instanceof ApiError && (error.status === 403 || error.status === 401);
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      {denied && (
        <p>
          {currentToken() ? 'The token in use may not see this. ' : 'You are not signed in. '}
          <Link to="/settings/tokens">Sign in with a token</Link>
        </p>
      )}
    </div>
  );
}
