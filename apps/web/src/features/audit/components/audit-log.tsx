import { useState, type FormEvent } from 'react';
import { AUDIT_ENTITIES } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { Pagination } from '@/components/ui/pagination';
import { SelectField, type SelectOption } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAudit, type AuditFilters } from '../api/get-audit';
import { isKnownAction } from '../audit-labels';
import { AuditChanges } from './audit-changes';

const LIMIT = 50;
const EMPTY = { actorId: '', entity: '', from: '', to: '' };

/** A person who may appear in the trail: the option to filter by, and the name and role shown in rows. */
export interface AuditActor extends SelectOption {
  name: string;
  role: string;
}

interface AuditLogProps {
  /** People to filter by, with the names to show for their ids (the route supplies them). */
  actors: readonly AuditActor[];
}

/** The admin's audit trail: money movements and changes of users, devices, tariffs and Wi-Fi. */
export function AuditLog({ actors }: AuditLogProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(EMPTY);
  const isEntity = (entity: string): entity is (typeof AUDIT_ENTITIES)[number] =>
    (AUDIT_ENTITIES as readonly string[]).includes(entity);
  const entityLabel = (entity: (typeof AUDIT_ENTITIES)[number]) => t(`audit.entities.${entity}`);
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const audit = useAudit({ ...filters, page, limit: LIMIT });
  const people = new Map(actors.map((actor) => [actor.value, actor]));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      actorId: draft.actorId || undefined,
      entity: (draft.entity || undefined) as AuditFilters['entity'],
      from: draft.from || undefined,
      to: draft.to || undefined,
    });
    setPage(1);
  };

  const reset = () => {
    setDraft(EMPTY);
    setFilters({});
    setPage(1);
  };

  const set = (name: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setDraft((values) => ({ ...values, [name]: event.target.value }));

  return (
    <div className="stack">
      <form className="card filter-grid" onSubmit={apply} aria-label={t('audit.filter')}>
        <SelectField
          label={t('audit.actor')}
          placeholder={t('audit.anyone')}
          options={actors}
          value={draft.actorId}
          onChange={set('actorId')}
        />
        <SelectField
          label={t('audit.entity')}
          placeholder={t('audit.everything')}
          options={AUDIT_ENTITIES.map((entity) => ({ value: entity, label: entityLabel(entity) }))}
          value={draft.entity}
          onChange={set('entity')}
        />
        <TextField label={t('audit.from')} type="date" value={draft.from} onChange={set('from')} />
        <TextField label={t('audit.to')} type="date" value={draft.to} onChange={set('to')} />
        <div className="actions filter-actions">
          <Button type="submit">{t('audit.filterButton')}</Button>
          <Button variant="secondary" onClick={reset}>
            {t('audit.reset')}
          </Button>
        </div>
      </form>

      {audit.isPending ? (
        <Loading />
      ) : audit.isError ? (
        <StatusMessage tone="error">{t('audit.loadError', { detail: errorDetail(audit.error) })}</StatusMessage>
      ) : (
        <>
          {audit.data.data.length === 0 ? (
            <p className="empty">{t('audit.empty')}</p>
          ) : (
            <div
              className={audit.isPlaceholderData ? 'table-wrap table-busy' : 'table-wrap'}
              aria-busy={audit.isPlaceholderData || undefined}
            >
              <table className="table table-stack table-audit">
                <caption className="visually-hidden">{t('audit.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('audit.column.time')}</th>
                    <th scope="col">{t('audit.column.actor')}</th>
                    <th scope="col">{t('audit.column.action')}</th>
                    <th scope="col">{t('audit.column.entity')}</th>
                    <th scope="col">{t('audit.column.entityId')}</th>
                    <th scope="col">{t('audit.column.changes')}</th>
                  </tr>
                </thead>
                <tbody>
                  {audit.data.data.map((row) => (
                    <tr key={row.id}>
                      <td data-label={t('audit.column.time')} className="nowrap">
                        {formatDateTime(row.at)}
                      </td>
                      <td data-label={t('audit.column.actor')}>
                        {/* A person's name is data, as stored; the role is in words. */}
                        {row.actorId ? (
                          <ActorName actor={people.get(row.actorId)} id={row.actorId} />
                        ) : (
                          t('audit.system')
                        )}
                      </td>
                      <td data-label={t('audit.column.action')}>
                        {/* The plain words, with the code an operator may search by; a code this app
                            does not know yet is shown as it is. */}
                        {isKnownAction(row.action) ? (
                          <>
                            {t(`auditAction.${row.action}`)}{' '}
                            <small className="audit-code muted" translate="no">
                              {row.action}
                            </small>
                          </>
                        ) : (
                          <code translate="no">{row.action}</code>
                        )}
                      </td>
                      <td data-label={t('audit.column.entity')}>
                        {isEntity(row.entity) ? entityLabel(row.entity) : <code translate="no">{row.entity}</code>}
                      </td>
                      <td data-label={t('audit.column.entityId')} className="cell-id" translate="no">
                        {row.entityId}
                      </td>
                      <td data-label={t('audit.column.changes')}>
                        <AuditChanges before={row.before} after={row.after} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination label={t('audit.pages')} page={page} limit={LIMIT} total={audit.data.total} onPage={setPage} />
        </>
      )}
    </div>
  );
}

function ActorName({ actor, id }: { actor: AuditActor | undefined; id: string }) {
  if (!actor) return <code translate="no">{id}</code>;
  return (
    <>
      <span translate="no">{actor.name}</span> ({actor.role})
    </>
  );
}
