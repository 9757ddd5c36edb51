import { useState, type FormEvent } from 'react';
import { AUDIT_ENTITIES } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { Pagination } from '@/components/ui/pagination';
import { SelectField, type SelectOption } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAudit, type AuditFilters } from '../api/get-audit';
import { AuditChanges } from './audit-changes';

const LIMIT = 50;
const ENTITY_LABELS: Record<(typeof AUDIT_ENTITIES)[number], string> = {
  user: 'Users',
  device: 'Devices',
  tariffs: 'Tariffs',
  wifi: 'Wi-Fi',
  card: 'Cards',
  float_request: 'Float requests',
  float: 'Float',
  alarm: 'Alarms',
  alarm_settings: 'Alarm settings',
};
const EMPTY = { actorId: '', entity: '', from: '', to: '' };

interface AuditLogProps {
  /** People to filter by, with the names to show for their ids (the route supplies them). */
  actors: readonly SelectOption[];
}

/** The admin's audit trail: money movements and changes of users, devices, tariffs and Wi-Fi. */
export function AuditLog({ actors }: AuditLogProps) {
  const [draft, setDraft] = useState(EMPTY);
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const audit = useAudit({ ...filters, page, limit: LIMIT });
  const names = new Map(actors.map((actor) => [actor.value, actor.label]));

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
      <form className="card filter-grid" onSubmit={apply} aria-label="Filter the audit trail">
        <SelectField
          label="Actor"
          placeholder="Anyone"
          options={actors}
          value={draft.actorId}
          onChange={set('actorId')}
        />
        <SelectField
          label="Entity"
          placeholder="Everything"
          options={AUDIT_ENTITIES.map((entity) => ({ value: entity, label: ENTITY_LABELS[entity] }))}
          value={draft.entity}
          onChange={set('entity')}
        />
        <TextField label="From" type="date" value={draft.from} onChange={set('from')} />
        <TextField label="To" type="date" value={draft.to} onChange={set('to')} />
        <div className="actions filter-actions">
          <Button type="submit">Filter</Button>
          <Button variant="secondary" onClick={reset}>
            Reset
          </Button>
        </div>
      </form>

      {audit.isPending ? (
        <Loading />
      ) : audit.isError ? (
        <StatusMessage tone="error">Error loading the audit trail: {errorDetail(audit.error)}</StatusMessage>
      ) : (
        <>
          {audit.data.data.length === 0 ? (
            <p className="empty">No audit entries found.</p>
          ) : (
            <div
              className={audit.isPlaceholderData ? 'table-wrap table-busy' : 'table-wrap'}
              aria-busy={audit.isPlaceholderData || undefined}
            >
              <table className="table table-stack table-audit">
                <caption className="visually-hidden">Audit trail</caption>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Actor</th>
                    <th scope="col">Action</th>
                    <th scope="col">Entity</th>
                    <th scope="col">Entity ID</th>
                    <th scope="col">Changes</th>
                  </tr>
                </thead>
                <tbody>
                  {audit.data.data.map((row) => (
                    <tr key={row.id}>
                      <td data-label="Time" className="nowrap">
                        {formatDateTime(row.at)}
                      </td>
                      <td data-label="Actor">
                        {row.actorId ? (names.get(row.actorId) ?? <code>{row.actorId}</code>) : 'System'}
                      </td>
                      <td data-label="Action">{row.action}</td>
                      <td data-label="Entity">{ENTITY_LABELS[row.entity] ?? row.entity}</td>
                      <td data-label="Entity ID" className="cell-id">
                        {row.entityId}
                      </td>
                      <td data-label="Changes">
                        <AuditChanges before={row.before} after={row.after} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination label="Audit pages" page={page} limit={LIMIT} total={audit.data.total} onPage={setPage} />
        </>
      )}
    </div>
  );
}
