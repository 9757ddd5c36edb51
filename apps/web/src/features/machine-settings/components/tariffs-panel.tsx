import { useState, type FormEvent } from 'react';
import type { InsertTariffsRequest } from '@wv/contracts';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useMachineSettings } from '../api/get-machine-settings';
import { useInsertTariffs } from '../api/insert-tariffs';
import { failure, type Result } from './settings-result';

const EMPTY = { coldTariffs: '', freshTariffs: '', freshCalb: '', coldCalb: '' };
type TariffFields = typeof EMPTY;

/**
 * Tariffs Management, 'Insert New Tariffs': the previous tariffs and calibrations,
 * four required text fields, 'Insert Tariffs' and 'Clear'; after a success the fields clear and
 * 'Newly Inserted Tariffs' shows what was sent.
 */
export function TariffsPanel({ espId }: { espId: string }) {
  const previous = useMachineSettings(espId);
  const mutation = useInsertTariffs();
  const fields = useFields<TariffFields>(EMPTY);
  const [result, setResult] = useState<Result | null>(null);
  const [inserted, setInserted] = useState<TariffFields | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const sent = { ...fields.values };
    const body: InsertTariffsRequest = { espId, ...sent };
    mutation.mutate(body, {
      onSuccess: () => {
        setResult({ tone: 'success', text: 'Tariffs inserted successfully!' });
        setInserted(sent);
        fields.reset();
      },
      onError: (error) => setResult(failure(error, (detail) => `Error: ${detail}`)),
    });
  };

  const settings = previous.data && 'cold_tariffs' in previous.data ? previous.data : null;
  return (
    <Card title="Tariffs Management" className="settings-panel">
      <h3 className="panel-subtitle">Insert New Tariffs</h3>
      <div className="previous" aria-label="Previous tariffs">
        {settings ? (
          <DetailList
            items={[
              { label: 'Previous Cold Tariffs', value: String(settings.cold_tariffs) },
              { label: 'Previous Fresh Tariffs', value: String(settings.fresh_tariffs) },
              { label: 'Previous Fresh Calb', value: String(settings.fresh_calb) },
              { label: 'Previous Cold Calb', value: String(settings.cold_calb) },
            ]}
          />
        ) : previous.data && 'message' in previous.data ? (
          <p className="muted">{previous.data.message}</p>
        ) : previous.isPending ? (
          <p className="muted">Loading...</p>
        ) : null}
        {previous.isError && (
          <StatusMessage tone="error">
            {failure(previous.error, (detail) => `Error fetching tariffs: ${detail}`).text}
          </StatusMessage>
        )}
      </div>
      <form className="form" onSubmit={submit} aria-label="Insert New Tariffs">
        <div className="form-grid form-grid-tight">
          <TextField
            label="Cold Tariffs"
            required
            inputMode="decimal"
            autoComplete="off"
            {...fields.bind('coldTariffs')}
          />
          <TextField
            label="Fresh Tariffs"
            required
            inputMode="decimal"
            autoComplete="off"
            {...fields.bind('freshTariffs')}
          />
          <TextField label="Fresh Calb" required inputMode="decimal" autoComplete="off" {...fields.bind('freshCalb')} />
          <TextField label="Cold Calb" required inputMode="decimal" autoComplete="off" {...fields.bind('coldCalb')} />
        </div>
        <div className="actions">
          <Button type="submit" busy={mutation.isPending}>
            Insert Tariffs
          </Button>
          <Button variant="secondary" onClick={fields.reset}>
            Clear
          </Button>
        </div>
        {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      </form>
      {inserted && (
        <section className="inserted" aria-labelledby="inserted-title">
          <h3 id="inserted-title" className="panel-subtitle">
            Newly Inserted Tariffs
          </h3>
          <DetailList
            items={[
              { label: 'Cold Tariffs', value: inserted.coldTariffs },
              { label: 'Fresh Tariffs', value: inserted.freshTariffs },
              { label: 'Fresh Calb', value: inserted.freshCalb },
              { label: 'Cold Calb', value: inserted.coldCalb },
            ]}
          />
        </section>
      )}
    </Card>
  );
}
