import { useVirtualizer } from '@tanstack/react-virtual';
import type { FleetMachine } from '@wv/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SelectField } from '@/components/ui/select-field';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/dates';
import { formatLitres, formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import {
  filterMachines,
  firstDirection,
  NO_FILTERS,
  ownersOf,
  SORT_KEYS,
  sortMachines,
  type MachineFilters,
  type SortKey,
  type SortState,
} from './machine-table-model';
import { Sparkline } from './sparkline';

/** Rows drawn beyond the visible ones, so that a quick scroll does not show blanks. */
const OVERSCAN = 8;
const ROW_HEIGHT = 44;

interface MachineTableProps {
  machines: readonly FleetMachine[];
  /** Admins filter by owner; a manager owns every machine they see. */
  showOwner: boolean;
}

/**
 * The fleet's machines as one table (docs/web-app.md, "Fleet dashboard"): search, filters and sorting happen in
 * the browser over the one answer of GET /fleet/overview; only the rows in view are in the page (virtualised),
 * so 1,000 machines cost as much to draw as twenty. On a phone each row is a small card.
 */
export function MachineTable({ machines, showOwner }: MachineTableProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<MachineFilters>(NO_FILTERS);
  const [sort, setSort] = useState<SortState>({ key: 'revenue', direction: 'desc' });
  const scrollRef = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => sortMachines(filterMachines(machines, filters), sort), [machines, filters, sort]);
  const owners = useMemo(() => (showOwner ? ownersOf(machines) : []), [machines, showOwner]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    getItemKey: (index) => rows[index]!.espId,
  });

  const set = <K extends keyof MachineFilters>(key: K, value: MachineFilters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));
  const sortBy = (key: SortKey) =>
    setSort((s) =>
      s.key === key
        ? { key, direction: s.direction === 'asc' ? 'desc' : 'asc' }
        : { key, direction: firstDirection(key) },
    );
  const columns = SORT_KEYS.filter((key) => showOwner || key !== 'owner');
  const machineHref = paths.manager.machine.getHref;

  return (
    <section aria-label={t('fleet.table.title')} className="fleet-table-section">
      <div className="toolbar fleet-filters">
        <div className="field">
          <label htmlFor="fleet-search">{t('fleet.table.search')}</label>
          <input
            id="fleet-search"
            type="search"
            value={filters.search}
            placeholder={t('fleet.table.searchPlaceholder')}
            onChange={(e) => set('search', e.target.value)}
          />
        </div>
        <SelectField
          label={t('fleet.table.status')}
          value={filters.status}
          onChange={(e) => set('status', e.target.value as MachineFilters['status'])}
          options={[
            { value: 'all', label: t('common.all') },
            { value: 'online', label: t('fleet.status.online') },
            { value: 'offline', label: t('fleet.status.offline') },
          ]}
        />
        {showOwner && (
          <SelectField
            label={t('fleet.table.owner')}
            value={filters.owner}
            onChange={(e) => set('owner', e.target.value)}
            options={[
              { value: 'all', label: t('common.all') },
              { value: 'none', label: t('fleet.table.noOwner') },
              ...owners.map((o) => ({ value: o.id, label: o.name })),
            ]}
          />
        )}
        <SelectField
          label={t('fleet.table.alarm')}
          value={filters.alarm}
          onChange={(e) => set('alarm', e.target.value as MachineFilters['alarm'])}
          options={[
            { value: 'all', label: t('common.all') },
            { value: 'active', label: t('fleet.table.withAlarms') },
            { value: 'none', label: t('fleet.table.withoutAlarms') },
          ]}
        />
        <SelectField
          label={t('fleet.table.sortBy')}
          className="fleet-sort-select"
          value={`${sort.key}:${sort.direction}`}
          onChange={(e) => {
            const [key, direction] = e.target.value.split(':') as [SortKey, SortState['direction']];
            setSort({ key, direction });
          }}
          options={columns.flatMap((key) => [
            { value: `${key}:asc`, label: `${t(`fleet.column.${key}`)} ↑` },
            { value: `${key}:desc`, label: `${t(`fleet.column.${key}`)} ↓` },
          ])}
        />
      </div>
      <p className="muted" role="status">
        {t('fleet.table.count', { shown: rows.length, total: machines.length })}
      </p>

      <div
        className={`fleet-table ${showOwner ? 'fleet-table-owner' : ''}`}
        role="table"
        aria-label={t('fleet.table.title')}
        aria-rowcount={rows.length + 1}
      >
        <div role="rowgroup" className="fleet-table-head">
          <div role="row" className="fleet-row fleet-row-head" aria-rowindex={1}>
            {columns.map((key) => (
              <div
                key={key}
                role="columnheader"
                className={`fleet-cell fleet-cell-${key}`}
                aria-sort={sort.key === key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
              >
                <button type="button" className="fleet-sort" onClick={() => sortBy(key)}>
                  {t(`fleet.column.${key}`)}
                  {sort.key === key && <span aria-hidden="true">{sort.direction === 'asc' ? ' ↑' : ' ↓'}</span>}
                </button>
              </div>
            ))}
          </div>
        </div>
        <div ref={scrollRef} className="fleet-table-scroll" role="rowgroup">
          {rows.length === 0 ? (
            <p className="empty">{t('fleet.table.empty')}</p>
          ) : (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((item) => {
                const m = rows[item.index]!;
                return (
                  <div
                    key={item.key}
                    ref={virtualizer.measureElement}
                    data-index={item.index}
                    role="row"
                    aria-rowindex={item.index + 2}
                    data-esp-id={m.espId}
                    className="fleet-row"
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      transform: `translateY(${item.start}px)`,
                    }}
                    onClick={(e) => {
                      if (!(e.target as HTMLElement).closest('a')) void navigate(machineHref(m.espId));
                    }}
                  >
                    <div role="cell" className="fleet-cell fleet-cell-espId">
                      <Link to={machineHref(m.espId)}>{m.espId}</Link>
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-location">
                      {m.location ?? '—'}
                    </div>
                    {showOwner && (
                      <div role="cell" className="fleet-cell fleet-cell-owner">
                        {m.owner?.name ?? t('fleet.table.noOwner')}
                      </div>
                    )}
                    <div role="cell" className="fleet-cell fleet-cell-status">
                      <span className={`badge fleet-status-${m.online ? 'online' : 'offline'}`}>
                        {t(m.online ? 'fleet.status.online' : 'fleet.status.offline')}
                      </span>
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-revenue" data-label={t('fleet.column.revenue')}>
                      {formatMoney(m.today.revenue)}
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-litres" data-label={t('fleet.column.litres')}>
                      {formatLitres(m.today.litres)}
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-sales" data-label={t('fleet.column.sales')}>
                      {m.today.sales}
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-trend">
                      <Sparkline values={m.trend} />
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-alarms">
                      {m.activeAlarms > 0 && m.worstSeverity ? (
                        <span className={`badge alarm-severity alarm-severity-${m.worstSeverity}`}>
                          {t('fleet.table.alarmCount', {
                            count: m.activeAlarms,
                            severity: t(`alarm.severity.${m.worstSeverity}`),
                          })}
                        </span>
                      ) : (
                        <span className="muted">{t('fleet.table.noAlarms')}</span>
                      )}
                    </div>
                    <div role="cell" className="fleet-cell fleet-cell-lastSeen">
                      {m.lastSeen ? formatDateTime(m.lastSeen) : t('common.never')}
                    </div>
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
