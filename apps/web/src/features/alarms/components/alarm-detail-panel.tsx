import { useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { formatDateTime } from '@/lib/dates';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import type { Alarm } from '@wv/contracts';
import { useAddAlarmNote } from '../api/add-alarm-note';
import { useAssignAlarm } from '../api/assign-alarm';
import { useClearAlarm } from '../api/clear-alarm';
import { useAlarm } from '../api/get-alarm';
import type { Person } from '../api/get-assignees';

interface AlarmDetailPanelProps {
  alarm: Alarm;
  /** The owner manager or an admin: may assign and clear (the server decides in the end). */
  canManage: boolean;
  candidates: readonly Person[];
  nameOf: (userId: string) => string;
}

type Result = { tone: 'success' | 'error'; text: string };

/** The longest note the API takes (POST /alarms/{id}/notes). */
const NOTE_MAX_LENGTH = 1000;

/** An alarm's notes (with a form to add one), the messages sent about it, and Assign and Clear. */
export function AlarmDetailPanel({ alarm, canManage, candidates, nameOf }: AlarmDetailPanelProps) {
  const { t } = useTranslation();
  const detail = useAlarm(alarm.id);
  const addNote = useAddAlarmNote();
  const assign = useAssignAlarm();
  const clear = useClearAlarm();
  const [text, setText] = useState('');
  const [assignee, setAssignee] = useState('');
  const [result, setResult] = useState<Result | null>(null);

  const fail = (error: unknown) =>
    setResult({ tone: 'error', text: t('alarms.actionError', { detail: errorDetail(error) }) });
  const succeed = (key: 'alarms.noteAdded' | 'alarms.assigned' | 'alarms.cleared') => () =>
    setResult({ tone: 'success', text: t(key) });

  const onNote = (event: FormEvent) => {
    event.preventDefault();
    const note = text.trim();
    if (!note) return;
    if (note.length > NOTE_MAX_LENGTH) {
      setResult({ tone: 'error', text: t('alarms.noteTooLong', { max: NOTE_MAX_LENGTH }) });
      return;
    }
    setResult(null);
    addNote.mutate(
      { id: alarm.id, text: note },
      {
        onSuccess: () => {
          setText('');
          succeed('alarms.noteAdded')();
        },
        onError: fail,
      },
    );
  };

  const onAssign = (event: FormEvent) => {
    event.preventDefault();
    if (!assignee) return;
    setResult(null);
    assign.mutate({ id: alarm.id, userId: assignee }, { onSuccess: succeed('alarms.assigned'), onError: fail });
  };

  const onClear = () => {
    setResult(null);
    clear.mutate(alarm.id, { onSuccess: succeed('alarms.cleared'), onError: fail });
  };

  const manageable = canManage && alarm.status !== 'cleared';

  return (
    <div className="alarm-detail stack">
      {manageable && (
        <div className="alarm-manage">
          {candidates.length === 0 ? (
            <p className="muted">{t('alarms.noAssignees')}</p>
          ) : (
            <form className="alarm-assign" onSubmit={onAssign}>
              <SelectField
                label={t('alarms.assignTo')}
                value={assignee}
                placeholder={t('alarms.chooseAssignee')}
                options={candidates.map((person) => ({ value: person.userId, label: person.name }))}
                onChange={(event) => setAssignee(event.target.value)}
              />
              <Button type="submit" variant="secondary" busy={assign.isPending} disabled={!assignee}>
                {t('alarms.assign')}
              </Button>
            </form>
          )}
          <Button variant="danger" busy={clear.isPending} onClick={onClear}>
            {t('alarms.clear')}
          </Button>
        </div>
      )}
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}

      {detail.isPending ? (
        <Loading />
      ) : detail.isError ? (
        <StatusMessage tone="error">{t('alarms.detailError', { detail: errorDetail(detail.error) })}</StatusMessage>
      ) : (
        <>
          <section aria-label={t('alarms.notes')}>
            <h4 className="alarm-subtitle">{t('alarms.notes')}</h4>
            {detail.data.notes.length === 0 ? (
              <p className="muted">{t('alarms.noNotes')}</p>
            ) : (
              <ul className="alarm-notes">
                {detail.data.notes.map((note) => (
                  <li key={note.id}>
                    <p className="alarm-note-text">{note.text}</p>
                    <p className="muted alarm-note-meta">
                      {nameOf(note.userId)} · {formatDateTime(note.at)}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-label={t('alarms.notifications')}>
            <h4 className="alarm-subtitle">{t('alarms.notifications')}</h4>
            {detail.data.notifications.length === 0 ? (
              <p className="muted">{t('alarms.noNotifications')}</p>
            ) : (
              <ul className="alarm-deliveries">
                {detail.data.notifications.map((delivery, index) => (
                  <li key={`${delivery.channel}-${delivery.to}-${index}`}>
                    <span className="badge">{t(`alarm.channel.${delivery.channel}`)}</span> {delivery.to} ·{' '}
                    <span className={`delivery-${delivery.status}`}>{t(`alarm.delivery.${delivery.status}`)}</span> ·{' '}
                    {t('alarms.attempts', { count: delivery.attempts })} ·{' '}
                    <span className="muted">{formatDateTime(delivery.at)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}

      <form className="alarm-note-form" onSubmit={onNote}>
        <div className="field">
          <label htmlFor={`note-${alarm.id}`}>{t('alarms.note')}</label>
          <textarea
            id={`note-${alarm.id}`}
            rows={2}
            maxLength={NOTE_MAX_LENGTH}
            placeholder={t('alarms.notePlaceholder')}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary" busy={addNote.isPending} disabled={!text.trim()}>
          {t('alarms.addNote')}
        </Button>
      </form>
    </div>
  );
}
