import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { clearSession, SESSION_WARNING_LEAD_MS, useSession } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { useDialogFocus } from '@/components/ui/use-dialog-focus';
import { useRefreshSession } from '../api/refresh-session';
import { useSignOut } from '../hooks/use-sign-out';

/** The clock, read again every second while a signed-in page is open. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** 1:59, 0:05: minutes and seconds left, never below zero. */
export function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The session's end, announced (docs/web-app.md, "Behaviour"): SESSION_WARNING_LEAD_MS before the stored
 * expiry an alert dialog counts down and offers Stay signed in (a new token from POST /auth/refresh) or Sign
 * out; at the end of the countdown the session is cleared and /login says why. Another tab's refresh or
 * sign-out reaches this one through the stored session.
 */
export function SessionWarning() {
  const session = useSession();
  const now = useNow();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const expiresAt = session?.expiresAt ?? null;
  const remaining = expiresAt === null ? null : expiresAt - now;
  const warning = remaining !== null && remaining > 0 && remaining <= SESSION_WARNING_LEAD_MS;
  // The countdown was shown: its end signs out at once. A session that ended unannounced (a sleeping
  // laptop, another tab) is the route guard's, at its next check.
  const [warned, setWarned] = useState(false);
  if (warning && !warned) setWarned(true);
  if (warned && remaining !== null && remaining > SESSION_WARNING_LEAD_MS) setWarned(false);
  const ended = warned && remaining !== null && remaining <= 0;

  useEffect(() => {
    if (!ended) return;
    clearSession('ended');
    queryClient.clear();
    navigate(paths.login.getHref(), { replace: true });
  }, [ended, navigate, queryClient]);

  return warning ? <WarningDialog remaining={remaining} /> : null;
}

function WarningDialog({ remaining }: { remaining: number }) {
  const { t } = useTranslation();
  const titleId = useId();
  const textId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const signOut = useSignOut();
  const refresh = useRefreshSession();

  // Focus moves into the alert, on its first choice: staying signed in.
  useDialogFocus(dialog);

  const leave = () => {
    signOut();
    navigate(paths.login.getHref(), { replace: true });
  };

  return (
    <div className="dialog-backdrop">
      <div
        ref={dialog}
        className="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <h2 className="dialog-title" id={titleId}>
          {t('sessionWarning.title')}
        </h2>
        <div className="dialog-text" id={textId}>
          <p>{t('sessionWarning.countdown', { time: formatRemaining(remaining) })}</p>
          <p className="muted">{t('sessionWarning.hint')}</p>
        </div>
        {refresh.isError && (
          <StatusMessage tone="error">
            {t('sessionWarning.failed', { detail: errorDetail(refresh.error) })}
          </StatusMessage>
        )}
        <div className="actions actions-end">
          <Button busy={refresh.isPending} onClick={() => refresh.mutate()}>
            {t('sessionWarning.stay')}
          </Button>
          <Button variant="secondary" onClick={leave}>
            {t('sessionWarning.signOut')}
          </Button>
        </div>
      </div>
    </div>
  );
}
