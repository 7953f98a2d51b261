/**
 * What the pages' actions share: a request in flight at most once per control, the server's own error
 * text when it refuses, and a destructive action asked about on the page before it is sent, with a way
 * back (a browser dialog would block the page and cannot be styled or tested as the page is).
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Problem } from './pages/problem.js';

export interface Submit {
  busy: boolean;
  error?: Error;
  /** Runs `action` unless one is in flight; its failure is kept to show. Resolves true on success. */
  run(action: () => Promise<unknown>): Promise<boolean>;
  clear(): void;
}

export function useSubmit(): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  return {
    busy,
    error,
    clear: () => setError(undefined),
    async run(action) {
      if (busy) return false;
      setBusy(true);
      setError(undefined);
      try {
        await action();
        return true;
      } catch (err) {
        setError(err as Error);
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

export function SubmitError(props: { submit: Submit; testid?: string }) {
  if (!props.submit.error) return null;
  return (
    <div data-testid={props.testid ?? 'action-error'}>
      <Problem error={props.submit.error} />
    </div>
  );
}

/**
 * A button that first opens a question on the page: what will happen, any options (`children`), and
 * the confirming button, which runs `onConfirm`. The question closes when it succeeds or is cancelled;
 * `done`, when given, then says what was asked of the server (for an action the page shows no other trace of).
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  testid: string;
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
  disabled?: boolean;
  done?: string;
  children?: ComponentChildren;
}) {
  const [open, setOpen] = useState(false);
  const [succeeded, setSucceeded] = useState(false);
  const submit = useSubmit();
  if (!open) {
    return (
      <>
        <button
          type="button"
          class={props.danger ? 'danger' : undefined}
          data-testid={props.testid}
          disabled={props.disabled}
          onClick={() => {
            setSucceeded(false);
            setOpen(true);
          }}
        >
          {props.label}
        </button>
        {succeeded && props.done && (
          <span class="muted" role="status" data-testid={`${props.testid}-done`}>
            {props.done}
          </span>
        )}
      </>
    );
  }
  return (
    <div class="confirm" role="group" data-testid={`${props.testid}-confirm`}>
      <span>{props.question}</span>
      {props.children}
      <button
        type="button"
        class={props.danger ? 'danger' : 'active'}
        data-testid={`${props.testid}-yes`}
        disabled={submit.busy}
        onClick={async () => {
          if (await submit.run(props.onConfirm)) {
            setSucceeded(true);
            setOpen(false);
          }
        }}
      >
        {props.confirmLabel}
      </button>
      <button
        type="button"
        disabled={submit.busy}
        onClick={() => {
          submit.clear();
          setOpen(false);
        }}
      >
        Cancel
      </button>
      <SubmitError submit={submit} />
    </div>
  );
}
